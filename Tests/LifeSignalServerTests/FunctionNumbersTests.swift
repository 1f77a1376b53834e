import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// Every number a function takes, sent over HTTP at its extremes: each is refused with a 400
/// `invalid_argument` that names the field (nothing written), or served when it is in range;
/// none of them stops the server. A trap would end this test process, server and all, so a
/// test that finishes has also shown that nothing trapped; `/health` is asked after each field.
@Suite("/functions/v1 numbers at their extremes")
struct FunctionNumbersTests {
    /// The numbers sent, as JSON text.
    static let extremes: [(name: String, json: String)] = [
        ("Int64.max", "9223372036854775807"),
        ("Int64.min", "-9223372036854775808"),
        ("-1", "-1"),
        ("1e300", "1e300"),
        ("-1e300", "-1e300"),
        ("1.5", "1.5"),
        ("30 digits", "123456789012345678901234567890"),
        ("30 digits as a string", "\"123456789012345678901234567890\""),
    ]

    /// One numeric field of one function.
    struct Field: CustomStringConvertible {
        var function: String
        /// The request body with the number in place.
        var body: @Sendable (String) -> String
        /// What the refusal's message must mention (the field's wire name, or its words).
        var names: [String]
        /// The table a refused call must leave as it was.
        var table: String
        /// The extremes that are in range (or clamped), served with 200.
        var accepted: Set<String> = []
        /// Called with the service key instead of the person's token.
        var service = false

        var description: String { "\(function) \(names[0])" }
    }

    static func fields(me: String) -> [Field] {
        let notes = "users/\(me)/notes"
        return [
            Field(function: "get-notifications", body: { #"{"limit":\#($0)}"# }, names: ["limit"], table: "notifications"),
            Field(function: "get-check-in-history", body: { #"{"limit":\#($0)}"# }, names: ["limit"], table: "check_ins"),
            Field(function: "list-content", body: { #"{"table":"locations","limit":\#($0)}"# }, names: ["limit"], table: "locations"),
            Field(function: "list-content", body: { #"{"table":"events","offset":\#($0)}"# }, names: ["offset"], table: "events"),
            Field(function: "update-check-in-settings", body: { #"{"checkInInterval":\#($0)}"# }, names: ["checkInInterval"], table: "users"),
            Field(
                function: "save-content", body: { #"{"table":"locations","record":{"name":"Numbers \#(UUID())","sort_order":\#($0)}}"# },
                names: ["sort_order", "sort order"], table: "locations", accepted: ["-1"]),
            Field(
                function: "save-content", body: { #"{"table":"routes","record":{"name":"Route","duration_minutes":\#($0)}}"# },
                names: ["duration"], table: "routes"),
            Field(function: "query-documents", body: { #"{"collection":"\#(notes)","limit":\#($0)}"# }, names: ["limit"], table: "documents"),
            Field(
                function: "get-device-messages", body: { #"{"token":"numbers-token","after":\#($0)}"# }, names: ["after"],
                table: "device_messages", accepted: ["Int64.max"]),
            // The page size is clamped to 1…500, as the function always did.
            Field(
                function: "get-device-messages", body: { #"{"token":"numbers-token","limit":\#($0)}"# }, names: ["limit"],
                table: "device_messages", accepted: ["Int64.max", "Int64.min", "-1"]),
            Field(function: "process-check-ins", body: { #"{"batchSize":\#($0)}"# }, names: ["batchSize"], table: "notifications", service: true),
            Field(function: "update-escalation-settings", body: { #"{"graceSeconds":\#($0)}"# }, names: ["graceSeconds"], table: "users"),
            Field(function: "update-escalation-settings", body: { #"{"tierDelaySeconds":\#($0)}"# }, names: ["tierDelaySeconds"], table: "users"),
            Field(function: "update-escalation-settings", body: { #"{"repeatSeconds":\#($0)}"# }, names: ["repeatSeconds"], table: "users"),
            Field(function: "update-contact-tier", body: { #"{"contactId":"\#(UUID())","tier":\#($0)}"# }, names: ["tier"], table: "contacts"),
            // A fraction is a fine accuracy: the one in range raises the SOS.
            Field(
                function: "trigger-alert", body: { #"{"location":{"latitude":0,"longitude":0,"accuracy":\#($0)}}"# },
                names: ["location.accuracy"], table: "alerts", accepted: ["1.5"]),
        ]
    }

    @Test("every numeric field: extremes refused by name with nothing written, or served in range", arguments: Engine.allCases)
    func extremesOfEveryField(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        // An editor: the content functions' fields are among those checked.
        let ann = try await test.signInEditor("+15550001111")
        let me = ann.user.id.description
        let registered = try await server.request(
            "POST", "/functions/v1/register-push-token", bearer: ann.accessToken,
            body: Data(#"{"token":"numbers-token"}"#.utf8))
        #expect(registered.status == 200)

        for field in Self.fields(me: me) {
            let bearer = field.service ? server.serviceKey : ann.accessToken
            for (name, json) in Self.extremes {
                let before = try await test.count(field.table)
                let reply = try await server.request("POST", "/functions/v1/\(field.function)", bearer: bearer, body: Data(field.body(json).utf8))
                let after = try await test.count(field.table)
                if field.accepted.contains(name) {
                    #expect(reply.status == 200, "\(field) \(name): \(reply.text)")
                    continue
                }
                #expect(reply.status == 400, "\(field) \(name): \(reply.status) \(reply.text)")
                #expect(reply.json?["code"] as? String == "invalid_argument", "\(field) \(name): \(reply.text)")
                let message = reply.json?["message"] as? String ?? ""
                #expect(field.names.contains { message.contains($0) }, "\(field) \(name): \(message)")
                #expect(after == before, "\(field) \(name) changed \(field.table)")
            }
            #expect(try await server.request("GET", "/health").status == 200, "after \(field)")
        }
        // The refused interval left the person's settings as they were.
        let profile = try await server.request("POST", "/functions/v1/get-user-profile", bearer: ann.accessToken)
        #expect(profile.json?["checkInInterval"] as? Int == 86_400)
        // The one sort order in range was stored, once.
        #expect(try await test.count("locations") == 1)
    }

    @Test("days outside years 1…9999, signed digits and times with signs are refused by field", arguments: Engine.allCases)
    func daysAndTimes(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let ann = try await test.signInEditor("+15550001111")

        func save(_ record: String) async throws -> TestServer.Reply {
            try await server.request(
                "POST", "/functions/v1/save-content", bearer: ann.accessToken,
                body: Data(#"{"table":"events","record":{"name":"Day \#(UUID())",\#(record)}}"#.utf8))
        }
        let badDays = ["0000-01-01", "99999-01-01", "+999-01-01", "2026-+1-01", "2026-01-+1", "-001-01-01", "9223372036854775807-01-01", "２０２６-01-01"]
        for day in badDays {
            let reply = try await save(#""start_date":"\#(day)""#)
            #expect(reply.status == 400 && reply.json?["code"] as? String == "invalid_argument", "\(day): \(reply.text)")
            #expect((reply.json?["message"] as? String)?.contains("record.start_date") == true, "\(day): \(reply.text)")
            let listed = try await server.request(
                "POST", "/functions/v1/list-content", bearer: ann.accessToken,
                body: Data(#"{"table":"events","from":"\#(day)"}"#.utf8))
            #expect(listed.status == 400 && (listed.json?["message"] as? String)?.hasPrefix("from:") == true, "\(day): \(listed.text)")
        }
        for time in ["+1:+1", "-1:30", "12:-5", "+9:00:00"] {
            let reply = try await save(#""start_time":"\#(time)""#)
            #expect(reply.status == 400 && reply.json?["code"] as? String == "invalid_argument", "\(time): \(reply.text)")
        }
        #expect(try await test.count("events") == 0)
        // The ends of the range are days every engine stores and gives back.
        for day in ["0001-01-01", "9999-12-31"] {
            let reply = try await save(#""start_date":"\#(day)","start_time":"23:59:59""#)
            #expect(reply.status == 200 && reply.json?["start_date"] as? String == day, "\(day): \(reply.text)")
        }
        #expect(try await test.count("events") == 2)
        #expect(try await server.request("GET", "/health").status == 200)
    }

    @Test("a dotted field path deeper than a document nests is refused before any work", arguments: Engine.allCases)
    func deepFieldPaths(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        // An editor: the content functions' fields are among those checked.
        let ann = try await test.signInEditor("+15550001111")
        let me = ann.user.id.description
        let path = "users/\(me)/notes/a"
        func call(_ function: String, _ body: String) async throws -> TestServer.Reply {
            try await server.request("POST", "/functions/v1/\(function)", bearer: ann.accessToken, body: Data(body.utf8))
        }
        #expect(try await call("set-document", #"{"path":"\#(path)","data":{"n":{"integer":"1"}}}"#).status == 200)

        // 300,000 segments: writing along it would recurse once per segment.
        let deep = Array(repeating: "a", count: 300_000).joined(separator: ".")
        for (function, body) in [
            ("update-document", #"{"path":"\#(path)","fields":{"\#(deep)":{"integer":"1"}}}"#),
            ("query-documents", #"{"collection":"users/\#(me)/notes","filters":[{"field":"\#(deep)","op":"==","value":{"null":null}}]}"#),
            ("query-documents", #"{"collection":"users/\#(me)/notes","orderBy":[{"field":"\#(deep)"}]}"#),
        ] {
            let reply = try await call(function, body)
            #expect(reply.status == 400 && reply.json?["code"] as? String == "invalid_argument", "\(function): \(reply.status)")
            #expect((reply.json?["message"] as? String)?.contains("at most 20 segments") == true, "\(function): \(reply.text.prefix(200))")
        }
        // Twenty segments are a path a document may hold.
        let twenty = Array(repeating: "b", count: 20).joined(separator: ".")
        #expect(try await call("update-document", #"{"path":"\#(path)","fields":{"\#(twenty)":{"integer":"2"}}}"#).status == 200)
        #expect(try await call("update-document", #"{"path":"\#(path)","fields":{"\#(twenty).c":{"integer":"2"}}}"#).status == 400)

        // Many fields in one update: overlap is looked up per path, not per pair of paths (a
        // bound against a hang, not a speed check: 20,000 paths are 200 million pairs).
        let many = (0..<20_000).map { #""f\#($0)":{"integer":"\#($0)"}"# }.joined(separator: ",")
        let started = ContinuousClock.now
        let wide = try await call("update-document", #"{"path":"\#(path)","fields":{\#(many),"f7.x":{"integer":"1"}}}"#)
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(wide.status == 400 && (wide.json?["message"] as? String) == "The field paths f7 and f7.x overlap", "\(wide.text)")
        #expect(try await test.count("documents") == 1)
        #expect(try await server.request("GET", "/health").status == 200)
    }

    @Test("instants past year 9999 or before year 1 stored through /rest/v1 are read back by the functions", arguments: Engine.allCases)
    func storedFarInstants(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let ann = try await test.signInEditor("+15550001111")
        let me = ann.user.id.description
        // PostgreSQL keeps all of these; the SQLite server refuses them as PostgreSQL would
        // refuse a malformed date, so there is nothing to read back there.
        let stored: [(String, String, String)] = [
            (#""start_date":"infinity""#, "start_date", "9999-12-31"),
            (#""start_date":"5874897-12-31""#, "start_date", "9999-12-31"),
            (#""start_date":"-infinity""#, "start_date", "0001-01-01"),
            (#""created_at":"infinity""#, "created_at", "9999-12-31T23:59:59.999999+00:00"),
            (#""created_at":"294276-12-31T23:59:59Z""#, "created_at", "9999-12-31T23:59:59.999999+00:00"),
            (#""created_at":"4713-01-01 00:00:00+00 BC""#, "created_at", "0001-01-01T00:00:00.000000+00:00"),
        ]
        for (column, field, shown) in stored {
            let made = try await server.request(
                "POST", "/rest/v1/events", bearer: ann.accessToken,
                body: Data(#"{"name":"Far","slug":"far","created_by":"\#(me)",\#(column)}"#.utf8))
            switch engine {
            case .postgres: #expect(made.status == 201, "\(column): \(made.text)")
            case .sqlite: #expect(made.status == 400, "\(column): \(made.text)")
            }
            for function in ["list-content", "get-content"] {
                let id = try await test.backend.database.query(SQL.raw("SELECT id FROM events")).first?.uuid("id")
                let body = function == "list-content" ? #"{"table":"events"}"# : #"{"table":"events","id":"\#(id?.uuidString.lowercased() ?? "")"}"#
                let read = try await server.request("POST", "/functions/v1/\(function)", bearer: ann.accessToken, body: Data(body.utf8))
                if engine == .sqlite, function == "get-content" { continue }
                #expect(read.status == 200, "\(function) \(column): \(read.text)")
                let record: [String: Any]? =
                    function == "list-content"
                    ? (read.json?["records"] as? [[String: Any]])?.first : read.json.map { $0 as [String: Any] }
                if engine == .postgres { #expect(record?[field] as? String == shown, "\(function) \(column): \(read.text)") }
            }
            #expect(try await server.request("GET", "/health").status == 200)
            _ = try await test.backend.database.query(SQL.raw("DELETE FROM events"))
        }
    }
}
