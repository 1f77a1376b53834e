import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalSQLite
import LifeSignalTestSupport
import Testing

/// The backend's bounds on numbers: what a function takes from a request, and what the
/// storage layer reads back of values a client could store through `/rest/v1`.
@Suite("Numbers in requests: the backend's bounds")
struct BackendNumberBoundsTests {
    @Test("a date past what postgres-nio can encode is bound as infinity, not a trap", arguments: Engine.allCases)
    func farDatesBind(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        for seconds in [1e15, -1e15, 1e300, Double.infinity, 9.1e12] {
            let far = Date(timeIntervalSince1970: seconds)
            let row = try await test.backend.database.query(
                engine == .postgres ? "SELECT \(SQLValue.timestamp(far))::timestamptz AS far" : "SELECT \(SQLValue.timestamp(far)) AS far"
            ).first
            let stored = try #require(row).optionalDate("far")
            if engine == .postgres {
                // Both ends are PostgreSQL's infinities, read back as dates beyond any deadline.
                let expected = seconds > 0 ? Date(timeIntervalSince1970: 9e12) : Date(timeIntervalSince1970: -9e12)
                #expect(seconds > 0 ? (stored ?? .distantPast) > expected : (stored ?? .distantFuture) < expected, "\(seconds): \(String(describing: stored))")
            } else {
                #expect(row != nil)
            }
        }
    }

    @Test("timestamps outside years 1…9999 format as the nearest end instead of trapping")
    func farInstants() {
        #expect(Timestamp.format(Date(timeIntervalSince1970: 1e300)) == "9999-12-31T23:59:59.999999+00:00")
        #expect(Timestamp.format(Date(timeIntervalSince1970: .infinity)) == "9999-12-31T23:59:59.999999+00:00")
        #expect(Timestamp.format(Date(timeIntervalSince1970: -1e300)) == "0001-01-01T00:00:00.000000+00:00")
        #expect(Timestamp.format(Date(timeIntervalSince1970: -62_135_596_801)) == "0001-01-01T00:00:00.000000+00:00")
        #expect(Timestamp.format(Date(timeIntervalSince1970: .nan)) == "1970-01-01T00:00:00.000000+00:00")
        // PostgreSQL's `infinity` as PostgresNIO decodes it: Int64.max microseconds after 2000.
        let infinity = Date(timeInterval: Double(Int64.max) / 1_000_000, since: Date(timeIntervalSince1970: 946_684_800))
        #expect(Timestamp.format(infinity) == "9999-12-31T23:59:59.999999+00:00")
        #expect(Timestamp.postgresText(infinity) == "9999-12-31T23:59:59.999999+00:00")
        // Inside the range nothing changes.
        #expect(Timestamp.format(Date(timeIntervalSince1970: 253_402_300_799)) == "9999-12-31T23:59:59.000000+00:00")
        #expect(Timestamp.format(Date(timeIntervalSince1970: -62_135_596_800)) == "0001-01-01T00:00:00.000000+00:00")
        #expect(Timestamp.format(Date(timeIntervalSince1970: 0.5)) == "1970-01-01T00:00:00.500000+00:00")
    }

    @Test("an integer column holding a REAL reads as no integer when Int cannot hold it")
    func realsInIntegerColumns() throws {
        let row = SQLRow(
            columns: ["huge", "tiny", "nan", "inf", "fraction", "max"],
            values: [.double(1e300), .double(-1e300), .double(.nan), .double(.infinity), .double(2.7), .double(9.3e18)])
        #expect(row.optionalInt("huge") == nil && row.optionalInt("tiny") == nil)
        #expect(row.optionalInt("nan") == nil && row.optionalInt("inf") == nil && row.optionalInt("max") == nil)
        #expect(row.optionalInt("fraction") == 2)
        #expect(throws: DatabaseError.self) { try row.int("huge") }
    }

    @Test("process-check-ins: batchSize 1…10,000, refused by name before any row is claimed", arguments: Engine.allCases)
    func sweepBatchSize(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        defer { Task { try? await test.backend.close() } }
        for bad in [0, -1, Int.min, Int.max, CheckInSweep.maximumBatchSize + 1] {
            await #expect(throws: DomainError.invalidArgument("batchSize must be between 1 and 10000, not \(bad)")) {
                try await test.backend.sweep.run(caller: .service, batchSize: bad)
            }
        }
        // The role is checked first: a stranger learns nothing about the bounds.
        await #expect(throws: DomainError.unauthenticated) { try await test.backend.sweep.run(caller: .anonymous, batchSize: -1) }
        #expect(try await test.backend.sweep.run(caller: .service, batchSize: CheckInSweep.maximumBatchSize) == SweepReport())
        #expect(try await test.backend.sweep.run(caller: .service, batchSize: 1) == SweepReport())
    }

    @Test("list-content: offset 0…1,000,000 and limit 1…1,000, each refused by name", arguments: Engine.allCases)
    func contentPages(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        defer { Task { try? await test.backend.close() } }
        let refusals: [(String, String)] = [
            (#"{"table":"locations","offset":-1}"#, "offset must be between 0 and 1000000, not -1"),
            (#"{"table":"locations","offset":1000001}"#, "offset must be between 0 and 1000000, not 1000001"),
            (#"{"table":"locations","offset":9223372036854775807}"#, "offset must be between 0 and 1000000, not 9223372036854775807"),
            (#"{"table":"locations","limit":0}"#, "limit must be between 1 and 1000, not 0"),
            (#"{"table":"locations","limit":-9223372036854775808}"#, "limit must be between 1 and 1000, not -9223372036854775808"),
        ]
        for (body, message) in refusals {
            await #expect(throws: DomainError.invalidArgument(message)) {
                try await test.backend.functions.call("list-content", caller: .anonymous, body: Data(body.utf8))
            }
        }
        for body in [#"{"table":"locations","offset":1e300}"#, #"{"table":"locations","limit":1.5}"#, #"{"table":"locations","offset":"1"}"#] {
            do {
                _ = try await test.backend.functions.call("list-content", caller: .anonymous, body: Data(body.utf8))
                Issue.record("accepted \(body)")
            } catch BackendFunctions.Failure.badRequest(let why) {
                #expect(
                    [
                        "Invalid value for offset: 1e+300 is not a whole number from \(Int.min) to \(Int.max)",
                        "Invalid value for limit: 1.5 is not a whole number from \(Int.min) to \(Int.max)",
                        "Invalid value for offset: Expected to decode Int but found a string instead.",
                    ].contains(why), "\(why)")
            }
        }
        let page = try await test.backend.functions.call(
            "list-content", caller: .anonymous,
            body: Data(#"{"table":"locations","offset":1000000,"limit":1000}"#.utf8))
        #expect(String(decoding: page, as: UTF8.self) == #"{"records":[]}"#)
    }

    @Test("update-check-in-settings names checkInInterval and its range for any number", arguments: [Engine.sqlite])
    func intervals(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        defer { Task { try? await test.backend.close() } }
        let session = try await test.signIn("+15550001111")
        let ann = Caller.user(session.user.id)
        for number in ["1e300", "-1e300", "-1", "1.5", "9223372036854775807", "123456789012345678901234567890"] {
            do {
                _ = try await test.backend.functions.call("update-check-in-settings", caller: ann, body: Data(#"{"checkInInterval":\#(number)}"#.utf8))
                Issue.record("accepted \(number)")
            } catch let error as DomainError {
                #expect(error.message.hasPrefix("checkInInterval must be between 1 hour and 7 days (3600 to 604800 seconds)"), "\(error.message)")
            }
        }
        // Set through the profile document, the same field and the same words.
        let path = try DocumentPath("users/\(session.user.id)")
        await #expect(
            throws: DomainError.invalidArgument("checkInInterval must be between 1 hour and 7 days (3600 to 604800 seconds), not 9.223372036854776e+18")
        ) {
            try await test.backend.documents.update(caller: ann, path: path, fields: ["checkInInterval": .integer(.max)])
        }
        #expect(try await test.backend.profiles.profile(caller: ann).checkInIntervalSeconds == 86_400)
    }
}
