import ArgumentParser
import Clocks
import Dependencies
import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFeatures
import LifeSignalFunctions
import LifeSignalLocalAdapters

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Tell the LifeSignal story in-process, on an embedded SQLite file, with time moved by hand.")

    @Option(help: "Where to keep the demo's SQLite file (default: a fresh temporary file).")
    var database: String?

    func run() async throws {
        let path =
            database
            ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("lifesignal-demo-\(UUID().uuidString).sqlite").path
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let sms = RecordingSMSSender()
        var configuration = LifeSignalBackend.Configuration(
            jwtSecret: "demo-secret-not-for-production-use-0123456789", clock: .manual(clock), smsSender: sms,
            // A fixed code keeps the story the same on every run.
            testOTPs: try TestOTPs(parsing: "+15550001111=246810,\(DemoStory.bobPhone)=\(DemoStory.bobCode)"))
        // Stand-ins for Twilio and SMTP that keep what they are given: the story shows what left.
        configuration.deliveryChannels = DeliveryChannels(sms: RecordingChannelSender(), email: RecordingChannelSender(), voice: RecordingChannelSender())
        let base = URL(string: "http://127.0.0.1:54321") ?? URL(fileURLWithPath: "/")
        let links = ResponderLinks(jwtSecret: configuration.jwtSecret, baseURL: base)
        configuration.responderLink = { alert, responder in links.url(alertID: alert, responder: responder, now: clock.now) }
        let backend = try await LifeSignalBackend.open(databaseURL: path, configuration: configuration, engines: [.sqlite])
        defer { if database == nil { try? FileManager.default.removeItem(atPath: path) } }
        try await DemoStory(backend: backend, clock: clock, sms: sms).run()
        try await backend.close()
        print(
            """

            Try it yourself: run `swift run lifesignal serve` and open http://127.0.0.1:54321/ in a browser, on this
            computer or on a phone that reaches it (start the server with LIFESIGNAL_TEST_OTP=+15550001111=123456 to
            sign in with that code without an SMS provider).
            """)
    }
}

/// The demo's narrative, driven through the same reducers a phone app runs, on the Local
/// adapters.
@MainActor
struct DemoStory {
    let backend: LifeSignalBackend
    let clock: ManualClock
    let sms: RecordingSMSSender

    func say(_ text: String) { print(text) }

    func time(_ date: Date? = nil) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE HH:mm"
        return formatter.string(from: date ?? clock.now)
    }

    func run() async throws {
        let adapters = LocalAdapters(backend: backend)
        let clock = self.clock
        say("LifeSignal demo — everything runs in this process on an SQLite file; time moves by hand.\n")

        let auth = Store(initialState: AuthFeature.State(), reducer: { AuthFeature() }) { $0.authClient = adapters.authClient }
        let phone = "+15550001111"
        say("[\(time())] Alice opens the app and enters \(phone).")
        auth.send(.phoneChanged(phone))
        await auth.send(.sendCodeTapped).finish()
        guard case .enterCode(let number) = auth.state.step, let code = await sms.lastCode(for: number) else {
            throw DomainError.internal(auth.state.errorMessage ?? "no code was sent")
        }
        say("           An SMS brings her code \(code); she types 000000 by mistake first.")
        auth.send(.codeChanged("000000"))
        await auth.send(.verifyTapped).finish()
        say("           The app says: \(auth.state.errorMessage ?? "nothing")")
        auth.send(.codeChanged(code.value))
        await auth.send(.verifyTapped).finish()
        guard let session = auth.state.session else { throw DomainError.internal(auth.state.errorMessage ?? "sign-in failed") }
        say("           Signed in\(session.isNewUser ? ", and her account is created" : "").")
        try await onboard(adapters, first: "Alice", last: "Reyes", note: "Type 1 diabetic; insulin in the fridge")
        say("           Onboarding: her name, an emergency note, a 24 h interval and a reminder 30 minutes before.")
        let bob = try await link(alice: adapters)

        let checkIn = try store(adapters, CheckInFeature.State()) { CheckInFeature() }
        checkIn.send(.task)
        for _ in 0..<200 where checkIn.state.status == nil { try await Task.sleep(for: .milliseconds(10)) }
        let interval = Int((checkIn.state.status?.interval.seconds ?? 0) / 3600)
        say("[\(time())] Her check-in interval is \(interval) h; she has not checked in yet, so the button is \(checkIn.state.band.rawValue).")
        await checkIn.send(.checkInTapped).finish()
        if let deadline = checkIn.state.lastResult?.deadline {
            say("[\(time())] Alice checks in. Her next deadline is \(time(deadline)).")
        }
        report(checkIn.state)

        clock.advance(by: 60)
        await checkIn.send(.checkInTapped).finish()
        say("[\(time())] She taps again a minute later: \(checkIn.state.errorMessage ?? "accepted (it should not have been)").")

        for hours in [11.0, 6, 4, 4] {
            clock.advance(by: hours * 3600)
            await checkIn.send(.timerTicked).finish()
            report(checkIn.state)
        }
        checkIn.send(.onDisappear)
        say("\nThe deadline has passed: Alice is non-responsive, and the button stays red until she checks in.")
        try await escalation(alice: adapters, bob: bob)
        try await content(adapters: adapters)
    }

    func report(_ state: CheckInFeature.State) {
        let remaining = state.timeRemaining ?? 0
        let text =
            remaining > 0
            ? String(format: "%.1f h left", remaining / 3600)
            : String(format: "deadline passed %.1f h ago", -remaining / 3600)
        say("[\(time())] Status: \(text); the button is \(state.band.rawValue).")
    }
}
