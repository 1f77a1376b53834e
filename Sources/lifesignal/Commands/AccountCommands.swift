import ArgumentParser
import Foundation
import LifeSignalDomain
import LifeSignalFeatures

/// `lifesignal login`: phone sign-in through the sign-in screen's reducer (region-aware
/// numbers, the code's shape checked before it is sent); the session is kept for later
/// commands.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Sign in by phone: a code is sent by SMS, then typed here (or given with --code).")

    @OptionGroup var options: ClientOptions
    @Option(help: "Your phone number: international (+15550001111), or as dialled at home in --region.")
    var phone: String
    @Option(help: "Where the number is from when typed without +: \(PhoneRegion.all.map(\.id).joined(separator: ", ")).")
    var region = "US"
    @Option(help: "The 6-digit code, when you already have it (otherwise it is asked for).")
    var code: String?

    func validate() throws {
        guard PhoneRegion.named(region) != nil else {
            throw ValidationError("Unknown region \"\(region)\"; use one of \(PhoneRegion.all.map(\.id).joined(separator: ", "))")
        }
    }

    func run() async throws {
        try await CommandOutput.run { try await signIn() }
    }

    @MainActor
    func signIn() async throws {
        let screen = ScreenDriver(
            AuthFeature.State(region: PhoneRegion.named(region) ?? .unitedStates), clients: try options.clients(),
            errorMessage: \.errorMessage
        ) { AuthFeature() }
        try await screen.send(.phoneChanged(phone))
        try await screen.send(.sendCodeTapped)
        guard case .enterCode(let number) = screen.state.step else { throw DomainError.internal("No code was sent") }
        var entered = code
        if entered == nil {
            print("A code was sent to \(number.e164). Code: ", terminator: "")
            entered = readLine()
        }
        try await screen.send(.codeChanged(entered ?? ""))
        try await screen.send(.verifyTapped)
        guard let session = screen.state.session else { throw DomainError.unauthenticated }
        if options.json {
            try CommandOutput.json(["user_id": session.userID.rawValue.uuidString.lowercased(), "phone": session.phone.e164])
        } else {
            print("Signed in as \(session.phone.e164)\(session.isNewUser ? " (new account)" : "").")
        }
    }
}

/// `lifesignal logout`: ends the session on the server and forgets it here.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Sign out.")

    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await CommandOutput.run { try await signOut() }
    }

    @MainActor
    func signOut() async throws {
        let screen = ScreenDriver(AuthFeature.State(), clients: try options.clients(), errorMessage: \.errorMessage) { AuthFeature() }
        try await screen.send(.task)
        // Signed out already: nothing to end, and saying so is not an error.
        if screen.state.session != nil { try await screen.send(.signOutTapped) }
        if !options.json { print("Signed out.") }
    }
}

/// `lifesignal status`: the signed-in person's last check-in and deadline.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show your last check-in and next deadline.")

    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await CommandOutput.run { try await show() }
    }

    /// Through the check-in screen: its status, ticking stopped once read.
    @MainActor
    func show() async throws {
        let screen = ScreenDriver(CheckInFeature.State(), clients: try options.clients(), errorMessage: \.errorMessage) { CheckInFeature() }
        try await screen.start(.task) { $0.status != nil }
        screen.store.send(.onDisappear)
        guard let status = screen.state.status else { throw DomainError.internal("No status") }
        let now = screen.state.now
        if options.json {
            try CommandOutput.json(
                StatusJSON(
                    lastCheckIn: status.lastCheckIn, deadline: status.deadline,
                    intervalSeconds: Int(status.interval.seconds), band: status.band(at: now).rawValue))
            return
        }
        print("Interval: \(Int(status.interval.seconds / 3600)) h")
        guard let last = status.lastCheckIn, let deadline = status.deadline else {
            print("You have not checked in yet.")
            return
        }
        print("Last check-in: \(ContentValue.iso8601(last))")
        let left = deadline.timeIntervalSince(now)
        print(
            left > 0
                ? "Next deadline: \(ContentValue.iso8601(deadline)) (\(String(format: "%.1f", left / 3600)) h left, \(status.band(at: now).rawValue))"
                : "Deadline passed \(String(format: "%.1f", -left / 3600)) h ago: check in now.")
    }

    struct StatusJSON: Encodable {
        var lastCheckIn: Date?
        var deadline: Date?
        var intervalSeconds: Int
        var band: String

        enum CodingKeys: String, CodingKey {
            case band
            case lastCheckIn = "last_check_in"
            case deadline
            case intervalSeconds = "interval_seconds"
        }
    }
}

/// `lifesignal check-in`, through the check-in screen's reducer (its cooldown check first);
/// `check-in settings|pause|resume` change escalation (CheckInCommand+Escalation.swift).
struct CheckInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-in", abstract: "Check in now, or change what happens after a missed deadline.",
        subcommands: [Now.self, Settings.self, Pause.self, Resume.self, PIN.self], defaultSubcommand: Now.self)

    struct Now: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Check in now (what `lifesignal check-in` does).")

        @OptionGroup var options: ClientOptions
        @Option(help: "Your check-in PIN, when you set one (- reads it from standard input, kept out of the shell's history).")
        var pin: String?

        func run() async throws {
            try await CommandOutput.run { try await checkIn() }
        }

        @MainActor
        func checkIn() async throws {
            let screen = ScreenDriver(CheckInFeature.State(), clients: try options.clients(), errorMessage: \.errorMessage) { CheckInFeature() }
            if let pin = try pin.map(PIN.read) {
                try await screen.send(.checkInWithPINTapped(pin))
            } else {
                try await screen.send(.checkInTapped)
            }
            guard let result = screen.state.lastResult else { throw DomainError.internal("The check-in was not recorded") }
            if options.json {
                try CommandOutput.json(["checked_in_at": ContentValue.iso8601(result.checkedInAt), "deadline": ContentValue.iso8601(result.deadline)])
            } else {
                print("Checked in. Next deadline: \(ContentValue.iso8601(result.deadline)).")
            }
        }
    }
}
