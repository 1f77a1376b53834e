import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// The read-only functions a Firebase client uses where a Supabase client reads tables.
@Suite("Read functions")
struct ReadFunctionsTests {
    @Test("profile, notifications and check-in history: the caller's own, newest first, limits checked")
    func reads() async throws {
        let test = try await TestDatabases.backend(.sqlite)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")

        let profile = try await test.call("get-user-profile", ann)
        #expect(profile["userId"] as? String == ann.userID.description && profile["firstName"] as? String == "Ann")
        #expect(profile["checkInInterval"] as? Int == 86400 && profile["lastCheckInTime"] == nil)

        let first = try await test.backend.checkIns.checkIn(caller: ann)
        test.clock.advance(by: 600)
        let second = try await test.backend.checkIns.checkIn(caller: ann)
        _ = try await test.backend.checkIns.checkIn(caller: bob)
        let history = try await test.call("get-check-in-history", ann, ["limit": 10])
        let entries = try #require(history["checkIns"] as? [[String: Any]])
        #expect(entries.compactMap { $0["checkedInAt"] as? String } == [second, first].map { Timestamp.format($0.checkedInAt) })
        #expect(entries.allSatisfy { $0["source"] as? String == "manual" })
        await #expect(throws: DomainError.self) { try await test.call("get-check-in-history", ann, ["limit": 0]) }

        try await test.link(responder: ann, dependent: bob)
        let stored = try await test.notifications(ann)
        let listed = try #require(try await test.call("get-notifications", ann)["notifications"] as? [[String: Any]])
        #expect(!stored.isEmpty && listed.count == stored.count)
        #expect(listed.compactMap { $0["id"] as? String } == stored.map { $0.id.uuidString.lowercased() })
        #expect(listed.allSatisfy { $0["userId"] as? String == ann.userID.description })
        await #expect(throws: DomainError.self) { try await test.call("get-notifications", ann, ["limit": 1001]) }

        for name in ["get-user-profile", "get-notifications", "get-check-in-history"] {
            await #expect(throws: DomainError.unauthenticated) { try await test.call(name, .anonymous) }
        }
    }
}
