import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalServer
import LifeSignalTestSupport
import Testing

/// Generated requests against the real server on both engines: `/rest/v1` on every exposed
/// table and verb, every function, sign-in, odd headers and bodies, and Realtime frames.
///
/// Asserted for each: an answer (no crash, no dropped connection), never a 5xx, within a
/// bound; a refused write changes no row of any exposed table; `/health` fine at the end.
/// The seed is printed; `LIFESIGNAL_FUZZ_SEED=<seed>` reproduces a run and
/// `LIFESIGNAL_FUZZ_COUNT` sets its length (`scripts/fuzz` runs a long one).
@Suite("fuzz: generated requests", .serialized)
struct FuzzTests {
    /// Per request: an answer within this, however odd the request. A bound against a hang, not
    /// a speed check: in a clean-clone CI run (the whole suite in parallel on two cores) a
    /// `process-check-ins`, which runs the sweep, was once answered after 17 s.
    static let answerBound: Duration = .seconds(45)

    @Test("generated requests: no crash, no 5xx, bounded answers, refused writes change nothing", arguments: Engine.allCases)
    func requests(engine: Engine) async throws {
        let seed = FuzzRandom.seedFromEnvironment()
        let count = FuzzRandom.countFromEnvironment(default: 2_600)
        print("fuzz(\(engine)): seed \(seed), \(count) requests — reproduce with LIFESIGNAL_FUZZ_SEED=\(seed)")
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend) { FuzzTests.unthrottled(&$0) }
        defer { Task { await server.stop() } }
        let alice = try await test.signIn("+15550008001")
        let bob = try await test.signIn("+15550008002")
        let tables = try await Introspection.tables(in: test.backend.database).values.sorted { $0.name < $1.name }
        let forged = alice.accessToken.split(separator: ".").prefix(2).joined(separator: ".") + ".AAAA"
        var fuzzer = RequestFuzzer(
            random: FuzzRandom(seed: seed), tables: tables, functions: BackendFunctions.names.sorted(),
            bearers: [nil, alice.accessToken, bob.accessToken, server.anonKey, server.serviceKey, "garbage", "a.b.c", forged])
        let rowCount = RowCounter(database: test.backend.database, tables: tables.map(\.name))

        var failures: [String] = []
        var statuses: [Int: Int] = [:]
        for index in 0..<count {
            let request = fuzzer.next()
            let before = request.mayWrite ? try await rowCount.total() : nil
            let started = ContinuousClock.now
            let status: Int
            let text: String
            do {
                let reply = try await server.request(
                    request.method, request.path, apiKey: request.apiKey,
                    bearer: request.bearer, headers: request.headers, body: request.body)
                (status, text) = (reply.status, reply.text)
            } catch  where "\(error)".contains("Out of memory") {
                // libcurl under URLSession refuses some long URLs on its side; a plain socket
                // asks the server anyway.
                guard
                    let raw = await ConnectionTestSocket.exchange(
                        request.method, request.path, server: server, apiKey: request.apiKey, bearer: request.bearer,
                        headers: request.headers, body: request.body)?.status
                else {
                    failures.append("#\(index) no answer on a plain socket either: \(request)")
                    continue
                }
                (status, text) = (raw, "")
            } catch {
                failures.append("#\(index) no answer (\(error)): \(request)")
                if try await server.request("GET", "/health").status != 200 { break }
                continue
            }
            let elapsed = ContinuousClock.now - started
            statuses[status, default: 0] += 1
            if status >= 500 {
                failures.append("#\(index) \(status) \(text.prefix(300)): \(request)")
            }
            if elapsed > Self.answerBound {
                failures.append("#\(index) answered after \(elapsed): \(request)")
            }
            if let before, status >= 400, try await rowCount.total() != before {
                failures.append("#\(index) refused with \(status) but rows changed: \(request)")
            }
            if failures.count >= 25 { break }
        }
        print("fuzz(\(engine)): statuses \(statuses.sorted { $0.key < $1.key })")
        for failure in failures {
            print("fuzz(\(engine)) FAILURE seed \(seed): \(failure)")
            Issue.record(Comment(rawValue: "seed \(seed): \(failure)"))
        }
        #expect(try await server.request("GET", "/health").status == 200)
        #expect(statuses.values.reduce(0, +) >= min(count, 100), "most requests were answered")
    }

    @Test("generated Realtime frames: the socket refuses or ignores them, the server lives on", arguments: Engine.allCases)
    func realtimeFrames(engine: Engine) async throws {
        let seed = FuzzRandom.seedFromEnvironment()
        let count = max(200, FuzzRandom.countFromEnvironment(default: 2_600) / 10)
        print("fuzz realtime(\(engine)): seed \(seed), \(count) frames")
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend) { FuzzTests.unthrottled(&$0) }
        defer { Task { await server.stop() } }
        let alice = try await test.signIn("+15550008003")
        let tables = try await Introspection.tables(in: test.backend.database).values.sorted { $0.name < $1.name }
        var random = FuzzRandom(seed: seed)
        var frames = FrameFuzzer(tables: tables, token: alice.accessToken)
        var sent = 0
        while sent < count {
            let socket = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
            for _ in 0..<20 {
                socket.send(frames.next(&random))
                sent += 1
            }
            // Whatever came before, a heartbeat on a socket still open is answered; a socket
            // the server closed (a frame over a limit) is also an answer.
            try? socket.send(topic: "phoenix", event: "heartbeat", ref: "hb")
            let answered = try? await socket.nextObject(where: { $0["ref"] as? String == "hb" }, timeout: Duration.seconds(20))
            if answered == nil {
                #expect(try await server.request("GET", "/health").status == 200, "seed \(seed): the server died after frame \(sent)")
            }
            await socket.close()
        }
        let fresh = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
        try fresh.send(topic: "phoenix", event: "heartbeat", ref: "last")
        let reply = try await fresh.nextObject(where: { $0["ref"] as? String == "last" })
        #expect((reply["payload"] as? [String: any Sendable])?["status"] as? String == "ok", "seed \(seed)")
        await fresh.close()
        #expect(try await server.request("GET", "/health").status == 200)
    }

    /// The fuzz test sends thousands of requests from one address: the anonymous limit per
    /// address would answer most of them 429 and test nothing else. (The per-person limit
    /// cannot be set; under the tests' hand-driven clock it answers 429 after a person's burst.)
    static func unthrottled(_ configuration: inout ServerConfiguration) {
        configuration.clientLimits.anonymousPerMinute = 1_000_000
        configuration.clientLimits.anonymousBurst = 1_000_000
    }
}

/// The rows of every exposed table together, read straight from the database.
struct RowCounter: Sendable {
    let database: any Database
    let tables: [String]

    func total() async throws -> Int {
        let sum = tables.map { "(SELECT count(*) FROM \"\($0)\")" }.joined(separator: " + ")
        return try await database.query(SQL.raw("SELECT \(sum) AS n")).first?.int("n") ?? -1
    }
}

/// Realtime frames: garbage, JSON of the wrong shapes, joins with odd filters and tokens.
struct FrameFuzzer {
    let tables: [TableSchema]
    let token: String
    private var ref = 0

    init(tables: [TableSchema], token: String) {
        self.tables = tables
        self.token = token
    }

    mutating func next(_ random: inout FuzzRandom) -> String {
        ref += 1
        switch random.int(0...9) {
        case 0: return random.pick(["", "{", "[]", "null", "[1,2,3,4,5]", "\u{0}", String(repeating: "[", count: 5_000)])
        case 1: return "[\"\(ref)\",\"\(ref)\",\"realtime:x\",\"phx_join\",{}]"
        case 2:
            var values = RequestFuzzer(random: random, tables: tables, functions: [], bearers: [])
            let value = values.jsonValue(depth: 4)
            random = values.random
            return
                "{\"topic\":\"realtime:t\",\"event\":\"\(random.pick(["phx_join", "phx_leave", "access_token", "heartbeat", "nope", ""]))\",\"payload\":\(value),\"ref\":\"\(ref)\"}"
        default:
            let table = random.pick(tables)
            let column = random.pick(table.columns.map(\.name))
            let filter = random.pick([
                "\(column)=eq.1", "\(column)=in.(1,2,3)", "or=(\(column).eq.1)", "\(column)=zz.1", "", "=",
                "\(column)=eq." + String(repeating: "x", count: random.int(1...5_000)),
                "or=(" + String(repeating: "or(", count: random.int(1...3_000)) + "\(column).eq.1",
            ])
            let event = random.pick(["*", "INSERT", "UPDATE", "DELETE", "TRUNCATE", ""])
            let accessToken = random.pick([token, "garbage", ""])
            let binding: [String: Any] = [
                "event": event, "schema": random.pick(["public", "auth", ""]), "table": random.pick([table.name, "nope", ""]), "filter": filter,
            ]
            let bindings = Array(repeating: binding, count: random.chance(0.1) ? random.int(2...200) : 1)
            let payload: [String: Any] = ["config": ["postgres_changes": bindings], "access_token": accessToken]
            let frame: [String: Any] = ["topic": "realtime:\(random.int(0...1_000_000))", "event": "phx_join", "payload": payload, "ref": "\(ref)"]
            let data = (try? JSONSerialization.data(withJSONObject: frame)) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }
    }
}
