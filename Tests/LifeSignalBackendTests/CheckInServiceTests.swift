import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

@Suite("Check-in")
struct CheckInServiceTests {
    @Test("a check-in sets the deadline one interval ahead and is recorded", arguments: Engine.allCases)
    func checkIn(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let session = try await test.signIn("+15550001111")
        let caller = Caller.user(session.user.id)
        let before = try await test.backend.checkIns.status(caller: caller)
        #expect(before.lastCheckIn == nil)
        #expect(before.interval == .default)

        let result = try await test.backend.checkIns.checkIn(caller: caller)
        #expect(result.checkedInAt == test.clock.now)
        #expect(result.deadline == test.clock.now.addingTimeInterval(24 * 3600))
        let after = try await test.backend.checkIns.status(caller: caller)
        #expect(after.lastCheckIn == test.clock.now)
        #expect(after.band(at: test.clock.now) == .green)
        #expect(try await test.count("check_ins") == 1)
    }

    @Test("a repeat within five minutes is refused with the wait, and writes nothing", arguments: Engine.allCases)
    func tooSoon(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let caller = Caller.user(try await test.signIn("+15550001111").user.id)
        let first = try await test.backend.checkIns.checkIn(caller: caller)
        test.clock.advance(by: 120)
        await #expect(throws: DomainError.checkInTooSoon(retryAfter: 180)) { try await test.backend.checkIns.checkIn(caller: caller) }
        #expect(try await test.count("check_ins") == 1)
        #expect(try await test.backend.checkIns.status(caller: caller).lastCheckIn == first.checkedInAt)
        test.clock.advance(by: 180)
        let second = try await test.backend.checkIns.checkIn(caller: caller)
        #expect(second.checkedInAt == first.checkedInAt.addingTimeInterval(300))
        #expect(try await test.count("check_ins") == 2)
    }

    @Test("only a signed-in person can check in", arguments: Engine.allCases)
    func requiresUser(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        await #expect(throws: DomainError.unauthenticated) { try await test.backend.checkIns.checkIn(caller: .anonymous) }
        await #expect(throws: DomainError.notFound("User \(UserID(UUID(uuid: (0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1))))")) {
            try await test.backend.checkIns.checkIn(caller: .user(UserID(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)))))
        }
        #expect(try await test.count("check_ins") == 0)
    }

    @Test("racing check-ins record exactly one", arguments: Engine.allCases)
    func racingCheckIns(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let caller = Caller.user(try await test.signIn("+15550001111").user.id)
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask { (try? await test.backend.checkIns.checkIn(caller: caller)) != nil }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1)
        #expect(try await test.count("check_ins") == 1)
    }
}
