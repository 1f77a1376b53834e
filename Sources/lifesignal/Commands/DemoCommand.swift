import ArgumentParser
import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Tell the LifeSignal story in-process, on an embedded SQLite file, with time moved by hand.")

    @Option(help: "Where to keep the demo's SQLite file (default: a fresh temporary file).")
    var database: String?

    func run() async throws {
        let path = database ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("lifesignal-demo-\(UUID().uuidString).sqlite").path
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let sms = RecordingSMSSender()
        let backend = try await LifeSignalBackend.open(
            databaseURL: path,
            configuration: .init(jwtSecret: "demo-secret-not-for-production-use-0123456789", clock: .manual(clock), smsSender: sms))
        defer { if database == nil { try? FileManager.default.removeItem(atPath: path) } }
        let story = DemoStory(backend: backend, clock: clock, sms: sms)
        try await story.run()
        try await backend.close()
    }
}

/// The demo's narrative, step by step, through the same clients a phone app uses.
struct DemoStory {
    let backend: LifeSignalBackend
    let clock: ManualClock
    let sms: RecordingSMSSender

    func say(_ text: String) { print(text) }

    func time() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE HH:mm"
        return formatter.string(from: clock.now)
    }

    func run() async throws {
        let adapters = LocalAdapters(backend: backend)
        let auth = adapters.authClient
        let checkIns = adapters.checkInClient
        say("LifeSignal demo — everything runs in this process on an SQLite file; time moves by hand.\n")

        let phone = try PhoneNumber("+15550001111")
        say("[\(time())] Alice signs in with \(phone).")
        try await auth.sendCode(phone)
        guard let code = await sms.lastCode(for: phone) else { throw DomainError.internal("no code was sent") }
        say("           An SMS brings her code \(code).")
        let session = try await auth.verifyCode(phone, code)
        say("           Signed in\(session.isNewUser ? " (a new account)" : ""); her id is \(session.userID).")

        let status = try await checkIns.status()
        say("[\(time())] Her check-in interval is \(Int(status.interval.seconds / 3600)) h; she has not checked in yet (band \(status.band(at: clock.now).rawValue)).")
        let result = try await checkIns.checkIn()
        say("[\(time())] Alice checks in. Next deadline: \(Timestamp.format(result.deadline)).")
        try await report(checkIns)

        clock.advance(by: 60)
        do {
            _ = try await checkIns.checkIn()
            say("[\(time())] A second check-in went through (it should not have).")
        } catch let error as DomainError {
            say("[\(time())] She taps again a minute later: refused — \(error.message).")
        }

        for hours in [11.0, 6, 4, 4] {
            clock.advance(by: hours * 3600)
            try await report(checkIns)
        }
        say("\nThe deadline has passed: Alice is non-responsive. (Responders and escalation arrive with the backend issue.)")
    }

    func report(_ checkIns: CheckInClient) async throws {
        let status = try await checkIns.status()
        let remaining = status.timeRemaining(at: clock.now) ?? 0
        let text = remaining > 0
            ? String(format: "%.1f h left", remaining / 3600)
            : String(format: "deadline passed %.1f h ago", -remaining / 3600)
        say("[\(time())] Status: \(text); band \(status.band(at: clock.now).rawValue).")
    }
}
