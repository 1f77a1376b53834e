import Foundation
import HTTPTransportCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A message Twilio took: its id (`SM…`, for matching status callbacks) and first status.
public struct SMSReceipt: Sendable, Hashable {
    public let sid: String
    public let status: String
}

/// Why an SMS was not sent.
public enum SMSError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Twilio answered `status` with its error `code` (21211 invalid number, 21610 the
    /// recipient replied STOP, 20429 too many requests…).
    case refused(status: Int, code: Int?, message: String)
    /// No answer, or one that is not Twilio's.
    case transport(String)
    case invalidRequest(String)

    /// Whether the number itself cannot take SMS: invalid (21211), not a mobile (21614), or
    /// its owner replied STOP (21610). Nothing more should be sent to it, not only this message.
    public var isUnreachableNumber: Bool {
        guard case .refused(_, let code?, _) = self else { return false }
        return [21211, 21610, 21614].contains(code)
    }

    /// Whether sending again later may succeed: rate limits, server errors, lost connections.
    /// A refusal such as an invalid or unsubscribed number is final.
    public var isTransient: Bool {
        switch self {
        case .refused(let status, let code, _): status == 429 || status >= 500 || code == 20429
        case .transport: true
        case .invalidRequest: false
        }
    }

    public var description: String {
        switch self {
        case .refused(let status, let code, let message): "Twilio refused the SMS (\(status), code \(code.map(String.init) ?? "none")): \(message)"
        case .transport(let reason): "Twilio could not be reached: \(reason)"
        case .invalidRequest(let reason): "The SMS cannot be sent: \(reason)"
        }
    }
}

/// Sends SMS through Twilio's Messages API: `POST /2010-04-01/Accounts/{sid}/Messages.json`,
/// Basic auth, a form body; one request per message.
///
/// Twilio has no idempotency key for messages, so a sender that must not send twice records
/// its intent before calling ``send(to:body:)`` and the returned `sid` after.
public struct TwilioClient: Sendable {
    public typealias Exchange = @Sendable (URLRequest) async throws -> (Data, URLResponse)

    public let configuration: TwilioConfiguration
    private let exchange: Exchange

    public init(configuration: TwilioConfiguration, exchange: Exchange? = nil) {
        self.configuration = configuration
        self.exchange = exchange ?? { try await URLSession.shared.dataWithoutCancelling(for: $0) }
    }

    /// Sends `body` to `to` (E.164, `+` and digits).
    ///
    /// - Throws: an ``SMSError``.
    public func send(to: String, body: String) async throws -> SMSReceipt {
        guard to.hasPrefix("+"), to.count > 1, to.count <= 16, to.dropFirst().allSatisfy(\.isASCII), to.dropFirst().allSatisfy(\.isNumber) else {
            throw SMSError.invalidRequest("not an E.164 number")
        }
        guard !body.isEmpty, body.count <= 1600 else { throw SMSError.invalidRequest("a body of 1…1600 characters, not \(body.count)") }
        return try await post(makeRequest(to: to, body: body))
    }

    /// Posts one request to Twilio and returns the resource it made (a message, a call).
    ///
    /// - Throws: an ``SMSError`` (Twilio's refusals are the same for every resource).
    func post(_ request: URLRequest) async throws -> SMSReceipt {
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await exchange(request)
        } catch {
            throw SMSError.transport(String(describing: error))
        }
        guard let http = response as? HTTPURLResponse else { throw SMSError.transport("not an HTTP response") }
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        guard http.statusCode == 201 || http.statusCode == 200 else {
            let message = json?["message"] as? String ?? String(decoding: data.prefix(300), as: UTF8.self)
            throw SMSError.refused(status: http.statusCode, code: json?["code"] as? Int, message: message)
        }
        guard let sid = json?["sid"] as? String else { throw SMSError.transport("a success without a sid") }
        return SMSReceipt(sid: sid, status: json?["status"] as? String ?? "queued")
    }

    func makeRequest(to: String, body: String) throws -> URLRequest {
        var fields = [("To", to), ("Body", body)]
        switch configuration.sender {
        case .number(let number): fields.append(("From", number))
        case .messagingService(let sid): fields.append(("MessagingServiceSid", sid))
        }
        if let callback = configuration.statusCallback { fields.append(("StatusCallback", callback.absoluteString)) }
        return makeRequest(resource: "Messages.json", fields: fields)
    }

    /// A signed form `POST` to one of the account's resources.
    func makeRequest(resource: String, fields: [(String, String)]) -> URLRequest {
        let path = "2010-04-01/Accounts/\(Self.pathSegment(configuration.accountSID))/\(resource)"
        var request = URLRequest(url: configuration.baseURL.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.timeoutInterval = TimeInterval(configuration.timeout.components.seconds)
        let user = configuration.apiKeySID ?? configuration.accountSID
        request.setValue("Basic " + Data("\(user):\(configuration.authToken)".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(fields.map { "\(Self.formEncoded($0.0))=\(Self.formEncoded($0.1))" }.joined(separator: "&").utf8)
        return request
    }

    /// `application/x-www-form-urlencoded`: unreserved characters as they are, space as `+`,
    /// every other byte percent-encoded (a `+` in a number must not become a space).
    static func formEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                out += "+"
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// The account SID is the operator's, but it goes into a path: only letters and digits.
    private static func pathSegment(_ text: String) -> String {
        String(text.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) && $0.isASCII }.map(Character.init))
    }
}
