import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalBackend
import LifeSignalDelivery
import NIOCore

/// What the server needs to believe a Twilio webhook (a delivery-status callback, an incoming
/// text): the account's auth token and the exact URL Twilio calls, which it signs.
public struct TwilioWebhook: Sendable {
    public var authToken: String
    public var url: URL

    public init(authToken: String, url: URL) {
        self.authToken = authToken
        self.url = url
    }

    /// The form fields of `request` when it carries a valid `X-Twilio-Signature` for ``url``;
    /// `nil` when it does not (answer 403 and act on nothing).
    func verifiedFields(of request: Request, upTo limit: Int) async throws -> [(String, String)]? {
        let body = try await request.body.collect(upTo: limit)
        let fields = FormBody.fields(Data(buffer: body))
        guard let name = HTTPField.Name("X-Twilio-Signature"), let signature = request.headers[name],
            TwilioSignature.isValid(signature, url: url.absoluteString, parameters: fields, authToken: authToken)
        else { return nil }
        return fields
    }

    /// What a request without a valid signature is answered.
    static var refusal: Response { JSONResponse.make(.forbidden, ["message": "The X-Twilio-Signature header is missing or wrong"]) }
}

/// `POST /hooks/twilio/status`: Twilio tells the server what became of an SMS (`delivered`,
/// `undelivered`, `failed`), and the ledger row of that message says so. A request without a
/// valid `X-Twilio-Signature` is refused 403 and changes nothing: otherwise anyone could mark
/// an alert's SMS delivered.
struct TwilioStatusRoutes<Context: RequestContext> {
    let backend: LifeSignalBackend
    let callback: TwilioWebhook?

    /// Callbacks are a few hundred bytes.
    static var bodyLimit: Int { 16 * 1024 }

    func register(on router: some RouterMethods<Context>) {
        router.post("hooks/twilio/status") { request, context in try await self.status(request, context) }
    }

    private func status(_ request: Request, _ context: Context) async throws -> Response {
        guard let callback else { return JSONResponse.make(.notFound, ["message": "No Twilio account is configured"]) }
        guard let fields = try await callback.verifiedFields(of: request, upTo: Self.bodyLimit) else { return TwilioWebhook.refusal }
        let field = { (name: String) in fields.first { $0.0 == name }?.1 }
        guard let sid = field("MessageSid") ?? field("SmsSid"), let status = field("MessageStatus") ?? field("SmsStatus") else {
            return JSONResponse.make(.badRequest, ["message": "MessageSid and MessageStatus are required"])
        }
        let outcome: ProviderStatus? =
            switch status {
            case "delivered": .delivered
            case "undelivered", "failed": .failed("Twilio: \(status)" + (field("ErrorCode").map { " (error \($0))" } ?? ""))
            default: nil  // queued, sending, sent…: the ledger already says sent
            }
        if let outcome, try await !backend.deliveries.record(outcome, providerMessageID: sid, channel: .sms) {
            Self.recordLater(outcome, sid: sid, in: backend)
        }
        return Response(status: .noContent)
    }

    /// A callback can outrun the ledger: results are recorded a few at a time after Twilio took
    /// the message, so the row may not carry its SID yet. Twilio does not call back twice, so
    /// the status is tried again for a while in the background (signed callbacks only reach
    /// here); a SID that never appears (a sign-in code's) is dropped then.
    static func recordLater(
        _ outcome: ProviderStatus, sid: String, in backend: LifeSignalBackend,
        every pause: Duration = .milliseconds(500), attempts: Int = 60
    ) {
        Task {
            for _ in 0..<attempts {
                try? await Task.sleep(for: pause)
                if (try? await backend.deliveries.record(outcome, providerMessageID: sid, channel: .sms)) == true { return }
            }
        }
    }
}
