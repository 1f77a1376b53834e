import LifeSignalDomain
import LifeSignalFunctions
import Logging

/// Delivers sign-in codes. Production plugs in an SMS provider; the default writes the code
/// to the log, which is what a developer running the server locally wants.
public protocol SMSSender: Sendable {
    func send(code: OneTimeCode, to phone: PhoneNumber) async throws
    /// Sends the code as `channel` asks: by SMS, or read out on a call (for a landline).
    func send(code: OneTimeCode, to phone: PhoneNumber, by channel: CodeChannel) async throws
}

/// How a sign-in or phone-change code reaches the phone.
public enum CodeChannel: String, Sendable, Hashable, CaseIterable {
    case sms
    /// A call that reads the code out twice: a landline cannot take a text.
    case call
}

extension SMSSender {
    /// Senders without calls send by SMS only.
    public func send(code: OneTimeCode, to phone: PhoneNumber, by channel: CodeChannel) async throws {
        guard channel == .sms else { throw DomainError.failedPrecondition("This server cannot read codes out on a call; ask for a text") }
        try await send(code: code, to: phone)
    }
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
    /// The numbers whose codes were read out on a call, in order.
    public private(set) var called: [PhoneNumber] = []

    public init() {}

    public func send(code: OneTimeCode, to phone: PhoneNumber) async throws {
        sent.append((phone, code))
    }

    public func send(code: OneTimeCode, to phone: PhoneNumber, by channel: CodeChannel) async throws {
        sent.append((phone, code))
        if channel == .call { called.append(phone) }
    }

    public func lastCode(for phone: PhoneNumber) -> OneTimeCode? {
        sent.last { $0.phone == phone }?.code
    }
}
