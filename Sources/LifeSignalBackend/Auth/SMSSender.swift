import LifeSignalDomain
import LifeSignalFunctions
import Logging

/// Delivers sign-in codes. Production plugs in an SMS provider; the default writes the code
/// to the log, which is what a developer running the server locally wants.
public protocol SMSSender: Sendable {
    func send(code: OneTimeCode, to phone: PhoneNumber) async throws
}

/// Writes codes to the log at `notice` level. Codes are short-lived secrets: never use this
/// sender where the log leaves the machine.
public struct LogSMSSender: SMSSender {
    private let logger: Logger

    public init(logger: Logger = Logger(label: "lifesignal.sms")) { self.logger = logger }

    public func send(code: OneTimeCode, to phone: PhoneNumber) async throws {
        logger.notice("SMS to \(phone.e164): Your LifeSignal code is \(code.value)")
    }
}

/// Keeps every code it is asked to send, for tests and the demo.
public actor RecordingSMSSender: SMSSender {
    public private(set) var sent: [(phone: PhoneNumber, code: OneTimeCode)] = []

    public init() {}

    public func send(code: OneTimeCode, to phone: PhoneNumber) async throws {
        sent.append((phone, code))
    }

    public func lastCode(for phone: PhoneNumber) -> OneTimeCode? {
        sent.last { $0.phone == phone }?.code
    }
}
