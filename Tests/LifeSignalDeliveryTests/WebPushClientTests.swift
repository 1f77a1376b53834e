import Crypto
import Foundation
import LifeSignalTestSupport
import Testing

@testable import LifeSignalDelivery

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``WebPushClient`` against a stand-in push service (`Tests/Compatibility/webpush_standin.py`)
/// on 127.0.0.1 that checks every message with independent implementations: the VAPID token
/// with `py_vapid` (over `cryptography`), the body by decrypting it with `http_ece` as the
/// browser would. The test plays the browser: it makes the subscription's key pair and auth
/// secret and hands the private half to the stand-in. The encryption also matches RFC 8291's
/// worked example (Appendix A) byte for byte.
@Suite("Web Push: client against a stand-in push service")
struct WebPushClientTests {
    static let contact = "mailto:operations@lifesignal.example"
    static let vapidKey = WebPushVAPIDKey.generate()

    /// The browser's side of a subscription: its ECDH key pair and auth secret.
    struct Browser {
        let key = P256.KeyAgreement.PrivateKey()
        let authSecret = WebPushClientTests.randomBytes(16)

        var p256dh: String { WebPushClientTests.base64URL(key.publicKey.x963Representation) }
        var auth: String { WebPushClientTests.base64URL(authSecret) }

        func subscription(_ endpoint: String) throws -> WebPushSubscription {
            try WebPushSubscription(endpoint: endpoint, p256dh: p256dh, auth: auth)
        }
    }

    /// A wall clock the test moves, for the VAPID tokens' age.
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var offset: TimeInterval = 0
        private let start = Date(timeIntervalSince1970: 1_800_000_000)

        func advance(_ seconds: TimeInterval) { lock.withLock { offset += seconds } }
        var now: Date { lock.withLock { start.addingTimeInterval(offset) } }
    }

    /// Requests the client made, in order; answered by `answer` (or passed on to the network).
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var taken: [URLRequest] = []

        var requests: [URLRequest] { lock.withLock { taken } }

        func record(_ request: URLRequest) { lock.withLock { taken.append(request) } }

        /// An exchange that records and answers 201 itself, without a network.
        var answering201: WebPushClient.Exchange {
            { request in
                self.record(request)
                let url = request.url ?? URL(fileURLWithPath: "/")
                guard let response = HTTPURLResponse(url: url, statusCode: 201, httpVersion: "HTTP/1.1", headerFields: [:]) else {
                    throw URLError(.badServerResponse)
                }
                return (Data(), response)
            }
        }

        /// An exchange that records, lets `alter` change the request, and sends it for real.
        func passingOn(_ alter: @escaping @Sendable (inout URLRequest) -> Void = { _ in }) -> WebPushClient.Exchange {
            { request in
                self.record(request)
                var request = request
                alter(&request)
                return try await URLSession.shared.dataWithoutCancelling(for: request)
            }
        }
    }

    static func randomBytes(_ count: Int) -> Data {
        Data((0..<count).map { _ in UInt8.random(in: .min ... .max) })
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decodeBase64URL(_ text: String) throws -> Data {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return try #require(Data(base64Encoded: standard))
    }

    static func start(_ browser: Browser) async throws -> StandInProcess {
        try await StandInProcess.start(
            "webpush_standin.py", arguments: [base64URL(browser.key.rawRepresentation), browser.auth])
    }

    static func client(
        exchange: WebPushClient.Exchange? = nil, now: @escaping @Sendable () -> Date = { Date() }, allowsLoopback: Bool = true
    ) throws -> WebPushClient {
        try WebPushClient(
            configuration: WebPushConfiguration(
                vapidKey: vapidKey, contact: contact, timeout: .seconds(60), allowsInsecureLoopbackEndpoints: allowsLoopback),
            exchange: exchange, now: now)
    }

    static func endpoint(_ standIn: StandInProcess, _ id: String) -> String {
        "http://127.0.0.1:\(standIn.port)/push/\(id)"
    }

    /// The JWT's parts: its header and claims as JSON objects, and the bytes it signs.
    static func jwtParts(_ authorization: String) throws -> (header: [String: Any], claims: [String: Any], signed: Data, signature: Data, k: String) {
        let prefix = "vapid t="
        #expect(authorization.hasPrefix(prefix))
        let fields = authorization.dropFirst(prefix.count).components(separatedBy: ", k=")
        try #require(fields.count == 2)
        let parts = fields[0].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3)
        let header = try #require(try JSONSerialization.jsonObject(with: decodeBase64URL(parts[0])) as? [String: Any])
        let claims = try #require(try JSONSerialization.jsonObject(with: decodeBase64URL(parts[1])) as? [String: Any])
        return (header, claims, Data("\(parts[0]).\(parts[1])".utf8), try decodeBase64URL(parts[2]), fields[1])
    }

    @Test("messages arrive decrypted byte for byte (ASCII, UTF-8 with emoji, binary, exactly 3993 bytes), VAPID verified, headers as sent")
    func delivers() async throws {
        let browser = Browser()
        let standIn = try await Self.start(browser)
        defer { standIn.stop() }
        let client = try Self.client()
        let subscription = try browser.subscription(Self.endpoint(standIn, "ann-phone"))
        let messages = [
            WebPushMessage(payload: Data("Ann missed her 09:00 check-in".utf8), timeToLive: .seconds(60), urgency: .high, topic: "missed-checkin-ann"),
            WebPushMessage(payload: Data("Ann n’a pas répondu 🚨 — appelez-la ☎️ 安全".utf8), timeToLive: .zero, urgency: .veryLow),
            WebPushMessage(payload: Data((0...255).map { UInt8($0) } + [0, 0, 2, 0]), timeToLive: .seconds(86_400), urgency: .low, topic: "AbC_-09"),
            WebPushMessage(
                payload: Self.randomBytes(WebPushMessage.maximumPayloadBytes), timeToLive: .seconds(3600), urgency: .normal,
                topic: String(repeating: "x", count: 32)),
            WebPushMessage(payload: Data()),
        ]
        #expect(WebPushMessage.maximumPayloadBytes == 3993)
        for message in messages {
            let receipt = try await client.send(message, to: subscription)
            #expect(receipt.status == 201)
            let location = try #require(receipt.location)
            #expect(location.absoluteString.hasPrefix("http://127.0.0.1:\(standIn.port)/message/"))

            let record = try await standIn.nextMessage()
            #expect(record["status"] as? Int == 201)
            #expect(record["path"] as? String == "/push/ann-phone")
            #expect(record["vapid_verified"] as? Bool == true, "\(record["vapid_error"] ?? "")")
            #expect(record["vapid_k"] as? String == Self.vapidKey.publicKeyBase64URL)
            let claims = record["vapid_claims"] as? [String: Any]
            #expect(claims?["aud"] as? String == "http://127.0.0.1:\(standIn.port)")
            #expect(claims?["sub"] as? String == Self.contact)
            #expect((record["vapid_header"] as? [String: Any])?["alg"] as? String == "ES256")
            #expect(record["decrypt_error"] == nil)
            #expect((record["plaintext"] as? String).flatMap { Data(base64Encoded: $0) } == message.payload)
            #expect(record["ttl"] as? String == String(message.timeToLive.components.seconds))
            #expect(record["urgency"] as? String == message.urgency.rawValue)
            #expect(record["topic"] as? String == message.topic)
            #expect(record["content_encoding"] as? String == "aes128gcm")
            #expect(record["content_type"] as? String == "application/octet-stream")
            #expect(record["rs"] as? Int == 4096)
            #expect(record["idlen"] as? Int == 65)
            #expect(record["body_length"] as? Int == message.payload.count + 86 + 1 + 16)
        }
        // The largest payload fills the push services' limit exactly.
        #expect(standIn.records.compactMap { $0["body_length"] as? Int }.max() == 4096)
    }

    @Test("one byte over 3993 is refused before any request, with the sizes")
    func refusesOneByteMore() async throws {
        let browser = Browser()
        let standIn = try await Self.start(browser)
        defer { standIn.stop() }
        let recorder = Recorder()
        let client = try Self.client(exchange: recorder.passingOn())
        let subscription = try browser.subscription(Self.endpoint(standIn, "ann-phone"))
        let error = await #expect(throws: WebPushError.self) {
            try await client.send(WebPushMessage(payload: Self.randomBytes(3994)), to: subscription)
        }
        #expect(error == .payloadTooLarge(bytes: 3994, limit: 3993))
        #expect(error?.isPayloadTooLarge == true && error?.isTransient == false)
        #expect(recorder.requests.isEmpty)
        #expect(standIn.messageCount == 0)
    }

    @Test("404 and 410 mean the subscription is gone; 429 is transient with Retry-After 7; 500 transient; 413 too large")
    func failures() async throws {
        let browser = Browser()
        let standIn = try await Self.start(browser)
        defer { standIn.stop() }
        let client = try Self.client()
        let message = WebPushMessage(payload: Data("Ann missed her check-in".utf8), urgency: .high)

        for (id, status) in [("gone", 410), ("missing", 404)] {
            let error = await #expect(throws: WebPushError.self) { try await client.send(message, to: try browser.subscription(Self.endpoint(standIn, id))) }
            #expect(error == .subscriptionGone(status: status))
            #expect(error?.isSubscriptionGone == true && error?.isTransient == false && error?.status == status)
        }

        let busy = await #expect(throws: WebPushError.self) { try await client.send(message, to: try browser.subscription(Self.endpoint(standIn, "busy"))) }
        guard case .unavailable(429, .some(.seconds(7)), _) = busy else {
            Issue.record("429 with Retry-After: 7 is unavailable for 7 s, not \(String(describing: busy))")
            return
        }
        #expect(busy?.isTransient == true && busy?.retryAfter == .seconds(7) && busy?.isSubscriptionGone == false)

        let broken = await #expect(throws: WebPushError.self) { try await client.send(message, to: try browser.subscription(Self.endpoint(standIn, "broken"))) }
        guard case .unavailable(500, nil, _) = broken else {
            Issue.record("500 is unavailable without a Retry-After, not \(String(describing: broken))")
            return
        }
        #expect(broken?.isTransient == true && broken?.retryAfter == nil)

        let big = await #expect(throws: WebPushError.self) { try await client.send(message, to: try browser.subscription(Self.endpoint(standIn, "big"))) }
        #expect(big == .bodyTooLarge(bytes: message.payload.count + 103))
        #expect(big?.isPayloadTooLarge == true && big?.isTransient == false && big?.status == 413)

        // Each failure was the push service's own: every message verified and decrypted.
        let records = try await standIn.records(atLeast: 5) { _ in true }
        #expect(records.count == 5)
        for record in records {
            #expect(record["vapid_verified"] as? Bool == true)
            #expect(record["plaintext"] as? String == message.payload.base64EncodedString())
        }
    }

    @Test("a VAPID key the push service does not verify is refused (403), as is a body it cannot decrypt (400); neither is transient")
    func refusals() async throws {
        let browser = Browser()
        let standIn = try await Self.start(browser)
        defer { standIn.stop() }
        let subscription = try browser.subscription(Self.endpoint(standIn, "ann-phone"))
        let message = WebPushMessage(payload: Data("hello".utf8))

        // The token signed by our key, presented with another key: the stand-in's check is real.
        let other = WebPushVAPIDKey.generate().publicKeyBase64URL
        let wrongKey = try Self.client(
            exchange: Recorder().passingOn { request in
                let value = request.value(forHTTPHeaderField: "Authorization") ?? ""
                let token = value.components(separatedBy: ", k=").first ?? value
                request.setValue("\(token), k=\(other)", forHTTPHeaderField: "Authorization")
            })
        let forbidden = await #expect(throws: WebPushError.self) { try await wrongKey.send(message, to: subscription) }
        guard case .refused(403, _) = forbidden else {
            Issue.record("a token that does not verify is refused with 403, not \(String(describing: forbidden))")
            return
        }
        #expect(forbidden?.isTransient == false && forbidden?.isSubscriptionGone == false)
        let first = try await standIn.nextMessage()
        #expect(first["vapid_verified"] as? Bool == false)
        #expect(first["vapid_error"] != nil)

        // One bit of the tag flipped: http_ece cannot decrypt it.
        let tampered = try Self.client(
            exchange: Recorder().passingOn { request in
                guard var body = request.httpBody, let last = body.indices.last else { return }
                body[last] ^= 0x01
                request.httpBody = body
            })
        let unreadable = await #expect(throws: WebPushError.self) { try await tampered.send(message, to: subscription) }
        guard case .refused(400, _) = unreadable else {
            Issue.record("a body that cannot be decrypted is refused with 400, not \(String(describing: unreadable))")
            return
        }
        let second = try await standIn.nextMessage()
        #expect(second["vapid_verified"] as? Bool == true)
        #expect(second["decrypt_error"] != nil && second["plaintext"] == nil)

        // The untouched client gets through the same stand-in.
        #expect(try await Self.client().send(message, to: subscription).status == 201)
        #expect((try await standIn.nextMessage())["plaintext"] as? String == message.payload.base64EncodedString())
    }

    @Test("no answer is transient: a closed port, an exchange that throws")
    func transportFailures() async throws {
        let subscription = try Browser().subscription("http://127.0.0.1:1/push/nobody")
        let message = WebPushMessage(payload: Data("hello".utf8))
        let closed = await #expect(throws: WebPushError.self) { try await Self.client().send(message, to: subscription) }
        guard case .transport = closed else {
            Issue.record("a closed port is a transport failure, not \(String(describing: closed))")
            return
        }
        #expect(closed?.isTransient == true && closed?.status == nil)

        let throwing = try Self.client(exchange: { _ in throw URLError(.networkConnectionLost) })
        let lost = await #expect(throws: WebPushError.self) { try await throwing.send(message, to: subscription) }
        guard case .transport = lost else {
            Issue.record("a lost connection is a transport failure, not \(String(describing: lost))")
            return
        }
        #expect(lost?.isTransient == true)
    }

    @Test("the same plaintext twice gives different ciphertexts: a fresh salt and key pair per message")
    func freshKeys() async throws {
        let browser = Browser()
        let standIn = try await Self.start(browser)
        defer { standIn.stop() }
        let recorder = Recorder()
        let client = try Self.client(exchange: recorder.passingOn())
        let subscription = try browser.subscription(Self.endpoint(standIn, "ann-phone"))
        let message = WebPushMessage(payload: Data("Ann missed her 09:00 check-in".utf8))
        try await client.send(message, to: subscription)
        try await client.send(message, to: subscription)

        let bodies = recorder.requests.compactMap(\.httpBody)
        try #require(bodies.count == 2)
        #expect(bodies[0] != bodies[1])
        #expect(bodies[0].prefix(16) != bodies[1].prefix(16), "the salts")
        #expect(bodies[0][21..<86] != bodies[1][21..<86], "the ephemeral public keys")
        #expect(bodies[0].suffix(from: 86) != bodies[1].suffix(from: 86), "the ciphertexts")

        let records = [try await standIn.nextMessage(), try await standIn.nextMessage()]
        #expect(records.allSatisfy { $0["plaintext"] as? String == message.payload.base64EncodedString() })
        #expect(records[0]["salt"] as? String != records[1]["salt"] as? String)
        #expect(records[0]["keyid"] as? String != records[1]["keyid"] as? String)
        // The key id is the message's own public key, never the VAPID key.
        #expect(records.allSatisfy { $0["keyid"] as? String != Self.vapidKey.publicKeyBase64URL })
    }

    @Test("RFC 8291 Appendix A: the worked example's body, byte for byte")
    func rfc8291Example() throws {
        let subscription = try WebPushSubscription(
            endpoint: "https://push.example.net/push/JzLQ3raZJfFBR0aqvOMsLrt54w4rJUsV",
            p256dh: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
            auth: "BTBZMqHH6r4Tts7J_aSIgg")
        let serverKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: Self.decodeBase64URL("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"))
        #expect(
            Self.base64URL(serverKey.publicKey.x963Representation)
                == "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8")
        let encryption = WebPushEncryption(salt: try Self.decodeBase64URL("DGv6ra1nlYgDCS1FRnbzlw"), ephemeralKey: serverKey)
        let body = try encryption.encrypt(Data("When I grow up, I want to be a watermelon".utf8), for: subscription)
        let expected = try Self.decodeBase64URL(
            "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
        )
        #expect(body == expected)
        #expect(body.count == 144)
    }

    @Test("subscriptions are checked: base64url keys of 65 and 16 bytes, a point on P-256, an https endpoint")
    func invalidSubscriptions() async throws {
        let browser = Browser()
        let endpoint = "https://push.example.net/push/abc"
        let valid = try browser.subscription(endpoint)
        #expect(valid.p256dh == browser.p256dh && valid.auth == browser.auth)
        #expect(valid.userAgentPublicKey.count == 65 && valid.authSecret.count == 16)
        #expect(valid.audience == "https://push.example.net")
        // Padding is accepted though browsers leave it out.
        #expect(try WebPushSubscription(endpoint: endpoint, p256dh: browser.p256dh + "=", auth: browser.auth + "==") == valid)

        let point = browser.key.publicKey.x963Representation
        let cases: [(String, String, String, String)] = [
            (endpoint, Self.base64URL(point.prefix(64)), browser.auth, "p256dh has 64 bytes, not the 65 of an uncompressed P-256 point"),
            (
                endpoint, Self.base64URL(browser.key.publicKey.compressedRepresentation), browser.auth,
                "p256dh has 33 bytes, not the 65 of an uncompressed P-256 point"
            ),
            (endpoint, Self.base64URL(Data([0x04] + [UInt8](repeating: 0xFF, count: 64))), browser.auth, "p256dh is not an uncompressed point on P-256"),
            (endpoint, Self.base64URL(Data([0x05]) + point.dropFirst()), browser.auth, "p256dh is not an uncompressed point on P-256"),
            (endpoint, "+/" + browser.p256dh.dropFirst(2), browser.auth, "p256dh is not base64url"),
            (endpoint, browser.p256dh + "!", browser.auth, "p256dh is not base64url"),
            (endpoint, " " + browser.p256dh, browser.auth, "p256dh is not base64url"),
            (endpoint, browser.p256dh + "AA", browser.auth, "p256dh is not base64url"),
            (endpoint, browser.p256dh, Self.base64URL(Self.randomBytes(15)), "auth has 15 bytes, not 16"),
            (endpoint, browser.p256dh, Self.base64URL(Self.randomBytes(17)), "auth has 17 bytes, not 16"),
            (endpoint, browser.p256dh, "", "auth has 0 bytes, not 16"),
            (endpoint, browser.p256dh, "not base64!", "auth is not base64url"),
        ]
        for (endpoint, p256dh, auth, reason) in cases {
            let error = #expect(throws: WebPushError.self) { try WebPushSubscription(endpoint: endpoint, p256dh: p256dh, auth: auth) }
            #expect(error == .invalidSubscription(reason), "\(p256dh) \(auth)")
            #expect(error?.isTransient == false)
        }
        for endpoint in ["ftp://push.example.net/x", "push.example.net/x", "https:///x", "mailto:someone@example.net"] {
            let error = #expect(throws: WebPushError.self) { try browser.subscription(endpoint) }
            guard case .invalidSubscription = error else {
                Issue.record("\(endpoint) is an invalid subscription, not \(String(describing: error))")
                continue
            }
        }

        // http: only on this machine, and only when the configuration says so; checked before
        // any request.
        let recorder = Recorder()
        let message = WebPushMessage(payload: Data("hello".utf8))
        let strict = try Self.client(exchange: recorder.answering201, allowsLoopback: false)
        let loose = try Self.client(exchange: recorder.answering201, allowsLoopback: true)
        for (client, endpoint) in [
            (strict, "http://127.0.0.1:8080/push/x"), (strict, "http://localhost:8080/push/x"), (loose, "http://push.example.net/push/x"),
            (loose, "http://127.evil.example/push/x"), (loose, "http://10.0.0.1/push/x"),
        ] {
            let error = await #expect(throws: WebPushError.self) { try await client.send(message, to: try browser.subscription(endpoint)) }
            guard case .invalidSubscription = error else {
                Issue.record("\(endpoint) is refused as an invalid subscription, not \(String(describing: error))")
                continue
            }
        }
        #expect(recorder.requests.isEmpty)
        try await loose.send(message, to: try browser.subscription("http://127.0.0.1:8080/push/x"))
        try await loose.send(message, to: try browser.subscription("http://localhost:8080/push/x"))
        try await strict.send(message, to: valid)
        #expect(recorder.requests.count == 3)
    }

    @Test("messages are checked: a topic of 1 to 32 base64url characters, a TTL of zero or more")
    func invalidMessages() async throws {
        let recorder = Recorder()
        let client = try Self.client(exchange: recorder.answering201)
        let subscription = try Browser().subscription("https://push.example.net/push/abc")
        let payload = Data("hello".utf8)
        for message in [
            WebPushMessage(payload: payload, topic: String(repeating: "a", count: 33)), WebPushMessage(payload: payload, topic: ""),
            WebPushMessage(payload: payload, topic: "ann/checkin"), WebPushMessage(payload: payload, topic: "ann checkin"),
            WebPushMessage(payload: payload, topic: "anné"), WebPushMessage(payload: payload, timeToLive: .seconds(-1)),
        ] {
            let error = await #expect(throws: WebPushError.self) { try await client.send(message, to: subscription) }
            guard case .invalidMessage = error else {
                Issue.record("\(message) is an invalid message, not \(String(describing: error))")
                continue
            }
        }
        #expect(recorder.requests.isEmpty)
    }

    @Test("the VAPID token: ES256 over aud (the origin), exp 12 h ahead, sub; reused per audience, renewed an hour before it expires")
    func vapidTokens() async throws {
        let clock = Clock()
        let recorder = Recorder()
        let client = try Self.client(exchange: recorder.answering201, now: { clock.now })
        let browser = Browser()
        let message = WebPushMessage(payload: Data("hello".utf8), timeToLive: .seconds(30), urgency: .high, topic: "t1")
        try await client.send(message, to: try browser.subscription("https://push.example.net/push/one"))

        let request = try #require(recorder.requests.first)
        #expect(request.httpMethod == "POST")
        #expect(request.url?.absoluteString == "https://push.example.net/push/one")
        #expect(request.value(forHTTPHeaderField: "Content-Encoding") == "aes128gcm")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/octet-stream")
        #expect(request.value(forHTTPHeaderField: "TTL") == "30")
        #expect(request.value(forHTTPHeaderField: "Urgency") == "high")
        #expect(request.value(forHTTPHeaderField: "Topic") == "t1")
        let authorization = try #require(request.value(forHTTPHeaderField: "Authorization"))
        let jwt = try Self.jwtParts(authorization)
        #expect(jwt.k == Self.vapidKey.publicKeyBase64URL)
        #expect(jwt.header["alg"] as? String == "ES256" && jwt.header["typ"] as? String == "JWT")
        #expect(jwt.claims["aud"] as? String == "https://push.example.net")
        #expect(jwt.claims["exp"] as? Int == Int(clock.now.timeIntervalSince1970) + 12 * 60 * 60)
        #expect(jwt.claims["sub"] as? String == Self.contact)
        #expect(jwt.claims.count == 3)
        let publicKey = try P256.Signing.PublicKey(x963Representation: Self.decodeBase64URL(jwt.k))
        #expect(publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: jwt.signature), for: jwt.signed))
        #expect(jwt.signature.count == 64)
        #expect(client.vapidTokensIssued == 1)

        func token(_ index: Int) throws -> String {
            let requests = recorder.requests
            try #require(requests.count > index)
            return requests[index].value(forHTTPHeaderField: "Authorization") ?? ""
        }
        // Same origin, another subscription: the same token.
        clock.advance(10 * 60 * 60)
        try await client.send(message, to: try Browser().subscription("https://push.example.net/push/two"))
        #expect(try token(1) == authorization)
        #expect(client.vapidTokensIssued == 1)
        // Another origin (a port is part of it): a token of its own.
        try await client.send(message, to: try browser.subscription("https://push.example.net:8443/push/one"))
        #expect(try Self.jwtParts(try token(2)).claims["aud"] as? String == "https://push.example.net:8443")
        #expect(client.vapidTokensIssued == 2)
        // Less than an hour left: replaced.
        clock.advance(60 * 60 + 1)
        try await client.send(message, to: try browser.subscription("https://push.example.net/push/one"))
        let renewed = try Self.jwtParts(try token(3))
        #expect(try token(3) != authorization)
        #expect(renewed.claims["exp"] as? Int == Int(clock.now.timeIntervalSince1970) + 12 * 60 * 60)
        #expect(client.vapidTokensIssued == 3)
        // Copies of a client share its tokens.
        let copy = client
        try await copy.send(message, to: try browser.subscription("https://push.example.net/push/one"))
        #expect(try token(4) == token(3))
        #expect(client.vapidTokensIssued == 3)
    }

    @Test("VAPID keys load from the base64url scalar and from PEM (PKCS#8, SEC 1) exactly as py_vapid and cryptography read them")
    func vapidKeys() async throws {
        guard let python = ProcessInfo.processInfo.environment["LIFESIGNAL_TEST_PYTHON"] else {
            Issue.record("LIFESIGNAL_TEST_PYTHON is not set: run the tests with scripts/test")
            return
        }
        let ours = WebPushVAPIDKey.generate()
        #expect(try Self.decodeBase64URL(ours.base64URLPrivateKey).count == 32)
        let result = try await ChildProcess.run(
            python,
            arguments: [
                "-c",
                """
                import json, sys
                from cryptography.hazmat.primitives import serialization
                from py_vapid import Vapid
                from py_vapid.utils import b64urlencode
                def public(vapid):
                    return b64urlencode(vapid.public_key.public_bytes(
                        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))
                theirs = Vapid()
                theirs.generate_keys()
                scalar = theirs.private_key.private_numbers().private_value.to_bytes(32, "big")
                sec1 = theirs.private_key.private_bytes(
                    serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL, serialization.NoEncryption())
                print(json.dumps({
                    "ours_public": public(Vapid.from_raw(sys.argv[1].encode())),
                    "raw": b64urlencode(scalar), "public": public(theirs),
                    "pkcs8": theirs.private_pem().decode(), "sec1": sec1.decode()}))
                """,
                ours.base64URLPrivateKey,
            ], within: .seconds(120))
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: String]
        let oracle = try #require(object, "py_vapid printed \(result.output) \(result.error)")
        #expect(oracle["ours_public"] == ours.publicKeyBase64URL)
        let expected = try #require(oracle["public"])
        #expect(try WebPushVAPIDKey(base64URLPrivateKey: try #require(oracle["raw"])).publicKeyBase64URL == expected)
        #expect(try WebPushVAPIDKey(pem: try #require(oracle["pkcs8"])).publicKeyBase64URL == expected)
        #expect(try WebPushVAPIDKey(pem: try #require(oracle["sec1"])).publicKeyBase64URL == expected)
        #expect(expected.count == 87 && expected.hasPrefix("B"))
        #expect(!ours.description.contains(ours.base64URLPrivateKey))

        let short = #expect(throws: WebPushError.self) { try WebPushVAPIDKey(base64URLPrivateKey: Self.base64URL(Self.randomBytes(31))) }
        #expect(short == .invalidConfiguration("the VAPID private key has 31 bytes, not the 32 of a P-256 scalar"))
        let notText = #expect(throws: WebPushError.self) { try WebPushVAPIDKey(base64URLPrivateKey: "a+b/c") }
        #expect(notText == .invalidConfiguration("the VAPID private key is not base64url"))
        let notPEM = #expect(throws: WebPushError.self) { try WebPushVAPIDKey(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----") }
        #expect(notPEM == .invalidConfiguration("the VAPID key is not a PEM P-256 private key"))
        for contact in ["", "ops@lifesignal.example", "mailto:", "http://lifesignal.example", "https://", "mailto:ops@lifesignal.example\r\nX: y"] {
            let error = #expect(throws: WebPushError.self) {
                try WebPushClient(configuration: WebPushConfiguration(vapidKey: ours, contact: contact))
            }
            guard case .invalidConfiguration = error else {
                Issue.record("\(contact) is refused as a contact, not \(String(describing: error))")
                continue
            }
        }
        _ = try WebPushClient(configuration: WebPushConfiguration(vapidKey: ours, contact: "https://lifesignal.example/contact"))
    }

    @Test("Retry-After: seconds, or an HTTP date counted from now")
    func retryAfter() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(WebPushClient.retryAfterDuration("7", now: now) == .seconds(7))
        #expect(WebPushClient.retryAfterDuration(" 120 ", now: now) == .seconds(120))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        #expect(WebPushClient.retryAfterDuration(formatter.string(from: now.addingTimeInterval(90)), now: now) == .seconds(90))
        #expect(WebPushClient.retryAfterDuration(formatter.string(from: now.addingTimeInterval(-90)), now: now) == .zero)
        #expect(WebPushClient.retryAfterDuration("soon", now: now) == nil)
        #expect(WebPushClient.retryAfterDuration("-5", now: now) == nil)
    }
}
