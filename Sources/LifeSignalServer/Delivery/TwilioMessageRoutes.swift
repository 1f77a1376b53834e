import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalBackend
import LifeSignalDelivery
import NIOCore

/// `POST /hooks/twilio/sms`: Twilio's inbound-message webhook, set on the operator's number.
/// A text from a phone is acted on (``SMSReplies``: STOP and START, HELP, a check-in) and the
/// reply goes back as TwiML in the answer, which Twilio sends. A request without a valid
/// `X-Twilio-Signature` for the configured URL is refused 403 and acts on nothing: otherwise
/// anyone could check a person in, or stop their alerts, by posting a form.
struct TwilioMessageRoutes<Context: RequestContext> {
    let backend: LifeSignalBackend
    let webhook: TwilioWebhook?

    /// An inbound message's form is a few kilobytes at most.
    static var bodyLimit: Int { 16 * 1024 }

    func register(on router: some RouterMethods<Context>) {
        router.post("hooks/twilio/sms") { request, context in try await self.message(request, context) }
    }

    private func message(_ request: Request, _ context: Context) async throws -> Response {
        guard let webhook else { return JSONResponse.make(.notFound, ["message": "No Twilio number is configured for texts"]) }
        guard let fields = try await webhook.verifiedFields(of: request, upTo: Self.bodyLimit) else { return TwilioWebhook.refusal }
        let field = { (name: String) in fields.first { $0.0 == name }?.1 }
        guard let sender = field("From") else { return JSONResponse.make(.badRequest, ["message": "From is required"]) }
        let reply = try await backend.smsReplies.answer(from: sender, body: field("Body") ?? "")
        return Self.twiML(reply)
    }

    /// `<Response/>`, or one `<Message>` with the reply, as Twilio's messaging TwiML has it.
    static func twiML(_ reply: String?) -> Response {
        let inner = reply.map { "<Message>\(escaped($0))</Message>" } ?? ""
        let text = #"<?xml version="1.0" encoding="UTF-8"?><Response>"# + inner + "</Response>"
        return Response(
            status: .ok, headers: [.contentType: "text/xml; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
