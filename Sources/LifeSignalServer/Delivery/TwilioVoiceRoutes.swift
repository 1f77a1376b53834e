import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalBackend
import LifeSignalDelivery
import NIOCore

/// What the server needs to believe Twilio's voice webhooks: the auth token and the public
/// URL the calls were placed with (each request is signed over its full URL).
public struct TwilioVoiceWebhook: Sendable {
    public var authToken: String
    public var publicURL: URL

    public init(authToken: String, publicURL: URL) {
        self.authToken = authToken
        self.publicURL = publicURL
    }
}

/// `POST /hooks/twilio/voice/<row>[/menu|/pin|/status]`: a call the ledger placed, as Twilio
/// asks about it (``VoiceCalls`` has the rules; this turns them into TwiML).
///
/// - `<row>`: answered. A machine (Twilio's answering-machine detection) gets `<Hangup/>`; a
///   person hears the message and a one-key menu, twice if they press nothing.
/// - `…/menu`: the key pressed. `…/pin`: the PIN keyed after it, on the person's own call.
/// - `…/status`: how the call ended.
///
/// Every request must carry a valid `X-Twilio-Signature` over its URL, else 403 and nothing
/// happens: a forged "1" would say someone is on it.
struct TwilioVoiceRoutes<Context: RequestContext> {
    let backend: LifeSignalBackend
    let webhook: TwilioVoiceWebhook?

    static var bodyLimit: Int { 16 * 1024 }

    /// The path of the call for ledger row `id`, under the public URL.
    static func path(for id: UUID) -> String { "hooks/twilio/voice/" + id.uuidString.lowercased() }

    func register(on router: some RouterMethods<Context>) {
        router.post("hooks/twilio/voice/:id") { request, context in
            try await self.signed(request, context, "") { id, fields, base in
                if fields["AnsweredBy"].map(Self.isMachine) == true { return Self.twiML("<Hangup/>") }
                return Self.script(try await self.backend.calls.script(for: id), call: base)
            }
        }
        router.post("hooks/twilio/voice/:id/menu") { request, context in
            try await self.signed(request, context, "/menu") { id, fields, base in
                Self.answer(try await self.backend.calls.pressed(fields["Digits"] ?? "", on: id), call: base)
            }
        }
        router.post("hooks/twilio/voice/:id/pin") { request, context in
            try await self.signed(request, context, "/pin") { id, fields, base in
                Self.answer(try await self.backend.calls.keyedPIN(fields["Digits"] ?? "", on: id), call: base)
            }
        }
        // Calls to the number: its voice webhook is `<public URL>/hooks/twilio/voice-in`.
        router.post("hooks/twilio/voice-in") { request, _ in
            try await self.signedIncoming(request, "") { fields, base in
                Self.script(try await self.backend.calls.incoming(from: fields["From"] ?? ""), call: base)
            }
        }
        router.post("hooks/twilio/voice-in/menu") { request, _ in
            try await self.signedIncoming(request, "/menu") { fields, base in
                Self.answer(try await self.backend.calls.pressedIncoming(fields["Digits"] ?? "", from: fields["From"] ?? ""), call: base)
            }
        }
        router.post("hooks/twilio/voice-in/pin") { request, _ in
            try await self.signedIncoming(request, "/pin") { fields, base in
                Self.answer(try await self.backend.calls.keyedPINIncoming(fields["Digits"] ?? "", from: fields["From"] ?? ""), call: base)
            }
        }
        router.post("hooks/twilio/voice/:id/status") { request, context in
            try await self.signed(request, context, "/status") { id, fields, _ in
                try await self.backend.calls.ended(id, status: fields["CallStatus"] ?? "", answeredBy: fields["AnsweredBy"])
                return Response(status: .noContent)
            }
        }
    }

    /// Checks the signature over the URL the call placed (the public URL, however a proxy in
    /// front rewrote the path), then runs `body` with the row, the form and the call's URL.
    private func signed(
        _ request: Request, _ context: Context, _ step: String, _ body: (UUID, [String: String], URL) async throws -> Response
    ) async throws -> Response {
        guard let webhook else { return JSONResponse.make(.notFound, ["message": "No Twilio number is configured for calls"]) }
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else {
            return JSONResponse.make(.notFound, ["message": "No such call"])
        }
        let call = webhook.publicURL.appendingPathComponent(Self.path(for: id))
        guard let fields = try await Self.verified(request, url: call.absoluteString + step, webhook: webhook) else { return TwilioWebhook.refusal }
        return try await body(id, fields, call)
    }

    /// The same for a call to the number, whose URL names no ledger row.
    private func signedIncoming(_ request: Request, _ step: String, _ body: ([String: String], URL) async throws -> Response) async throws -> Response {
        guard let webhook else { return JSONResponse.make(.notFound, ["message": "No Twilio number is configured for calls"]) }
        let call = webhook.publicURL.appendingPathComponent("hooks/twilio/voice-in")
        guard let fields = try await Self.verified(request, url: call.absoluteString + step, webhook: webhook) else { return TwilioWebhook.refusal }
        return try await body(fields, call)
    }

    /// The form of `request` when its `X-Twilio-Signature` is valid for `url`, else `nil`.
    private static func verified(_ request: Request, url: String, webhook: TwilioVoiceWebhook) async throws -> [String: String]? {
        let form = try await request.body.collect(upTo: Self.bodyLimit)
        let fields = FormBody.fields(Data(buffer: form))
        guard let name = HTTPField.Name("X-Twilio-Signature"), let signature = request.headers[name],
            TwilioSignature.isValid(signature, url: url, parameters: fields, authToken: webhook.authToken)
        else { return nil }
        return Dictionary(fields, uniquingKeysWith: { first, _ in first })
    }

    static func isMachine(_ answeredBy: String) -> Bool { answeredBy.hasPrefix("machine") || answeredBy == "fax" }

    /// The spoken words of an answered call.
    static func script(_ script: VoiceCalls.Script, call: URL) -> Response {
        switch script {
        case .over(let words):
            return twiML(say(words + " Goodbye.") + "<Hangup/>")
        case .responder(let message):
            let menu = say("This is LifeSignal with an urgent message. \(message) Press 1 if you will check on them. Press 2 to hear this again.")
            return twiML(gather(menu, call: call) + gather(say("Press 1 if you will check on them."), call: call) + say("Goodbye.") + "<Hangup/>")
        case .test(let message):
            let menu = say("This is a test from LifeSignal. \(message) Press 1 to confirm.")
            return twiML(gather(menu, call: call) + gather(say("Press 1 to confirm."), call: call) + say("Goodbye.") + "<Hangup/>")
        case .callIn(let firstName):
            let hello = firstName.isEmpty ? "Hello." : "Hello \(firstName)."
            let menu = say("\(hello) This is LifeSignal. Press 1 to check in.")
            return twiML(gather(menu, call: call) + gather(say("Press 1 to check in."), call: call) + say("Goodbye.") + "<Hangup/>")
        case .checkIn(let firstName):
            let hello = firstName.isEmpty ? "Hello." : "Hello \(firstName)."
            let menu = say("\(hello) This is LifeSignal. Your check-in is overdue. Press 1 if you are OK.")
            return twiML(gather(menu, call: call) + gather(say("Press 1 if you are OK."), call: call) + say("Goodbye.") + "<Hangup/>")
        }
    }

    static func answer(_ answer: VoiceCalls.Answer, call: URL) -> Response {
        switch answer {
        case .done(let words):
            return twiML(say(words + " Goodbye.") + "<Hangup/>")
        case .again:
            return twiML("<Redirect method=\"POST\">\(escaped(call.absoluteString))</Redirect>")
        case .askPIN:
            let ask = say("Please enter your check-in PIN, then press the hash key.")
            let gather =
                "<Gather input=\"dtmf\" finishOnKey=\"#\" timeout=\"10\" action=\"\(escaped(call.absoluteString))/pin\" method=\"POST\">\(ask)</Gather>"
            return twiML(gather + say("You are not checked in. Goodbye.") + "<Hangup/>")
        }
    }

    private static func gather(_ inner: String, call: URL) -> String {
        "<Gather input=\"dtmf\" numDigits=\"1\" timeout=\"8\" action=\"\(escaped(call.absoluteString))/menu\" method=\"POST\">\(inner)</Gather>"
    }

    private static func say(_ words: String) -> String { "<Say>\(escaped(words))</Say>" }

    private static func escaped(_ text: String) -> String {
        TwilioMessageRoutes<Context>.escaped(text).replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func twiML(_ verbs: String) -> Response {
        let text = #"<?xml version="1.0" encoding="UTF-8"?><Response>"# + verbs + "</Response>"
        return Response(status: .ok, headers: [.contentType: "text/xml; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
