import Foundation

/// A Twilio account to send SMS from (Programmable Messaging).
public struct TwilioConfiguration: Sendable, CustomStringConvertible {
    /// Who the messages come from: a number of the account's, or a Messaging Service (which
    /// picks one).
    public enum Sender: Sendable, Hashable {
        case number(String)
        case messagingService(sid: String)
    }

    public var accountSID: String
    /// The auth token, or an API key's secret with ``apiKeySID``. It signs the status
    /// callbacks too, so ``TwilioSignature`` checks them with it.
    public var authToken: String
    /// An API key (`SK…`) to authenticate with instead of the account SID.
    public var apiKeySID: String?
    public var sender: Sender
    /// Where Twilio posts delivery statuses (`MessageSid`, `MessageStatus`, `ErrorCode`).
    public var statusCallback: URL?
    /// `https://api.twilio.com`, or a stand-in's address in tests.
    public var baseURL: URL
    public var timeout: Duration

    public static let productionURL = URL(string: "https://api.twilio.com")!

    public init(
        accountSID: String, authToken: String, apiKeySID: String? = nil, sender: Sender, statusCallback: URL? = nil,
        baseURL: URL = TwilioConfiguration.productionURL, timeout: Duration = .seconds(30)
    ) {
        self.accountSID = accountSID
        self.authToken = authToken
        self.apiKeySID = apiKeySID
        self.sender = sender
        self.statusCallback = statusCallback
        self.baseURL = baseURL
        self.timeout = timeout
    }

    /// Never the token: configurations end up in logs.
    public var description: String { "Twilio account \(accountSID) (token hidden)" }
}
