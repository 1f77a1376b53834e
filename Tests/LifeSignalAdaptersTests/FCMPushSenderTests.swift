import Crypto
import FirebaseREST
import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalLocalAdapters
import Testing
import _CryptoExtras

/// Replays answers by URL and keeps every request, so the wire can be asserted exactly.
final class ReplayTransport: FirebaseHTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [FirebaseHTTPRequest] = []
    let answer: @Sendable (FirebaseHTTPRequest) -> FirebaseHTTPResponse

    init(answer: @escaping @Sendable (FirebaseHTTPRequest) -> FirebaseHTTPResponse) { self.answer = answer }

    var requests: [FirebaseHTTPRequest] { lock.withLock { recorded } }

    func send(_ request: FirebaseHTTPRequest) async throws -> FirebaseHTTPResponse {
        lock.withLock { recorded.append(request) }
        return answer(request)
    }
}

@Suite("FCM push sender")
struct FCMPushSenderTests {
    // A fresh key per run; generating one cannot fail for a supported size.
    static let key: _RSA.Signing.PrivateKey = { try! _RSA.Signing.PrivateKey(keySize: .bits2048) }()
    static var account: ServiceAccount {
        ServiceAccount(
            projectID: "lifesignal-test", clientEmail: "push@lifesignal-test.iam.gserviceaccount.com",
            privateKey: key.pemRepresentation, tokenURI: "https://oauth2.example.test/token")
    }

    static func transport(unregistered: Set<String> = []) -> ReplayTransport {
        ReplayTransport { request in
            if request.url.host == "oauth2.example.test" {
                return FirebaseHTTPResponse(status: 200, body: Data(#"{"access_token":"ya29.token","expires_in":3600,"token_type":"Bearer"}"#.utf8))
            }
            let body = String(decoding: request.body ?? Data(), as: UTF8.self)
            if unregistered.contains(where: { body.contains($0) }) {
                return FirebaseHTTPResponse(
                    status: 404,
                    body: Data(
                        #"{"error":{"code":404,"message":"Requested entity was not found.","status":"NOT_FOUND","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"UNREGISTERED"}]}}"#
                            .utf8))
            }
            return FirebaseHTTPResponse(status: 200, body: Data(#"{"name":"projects/lifesignal-test/messages/1"}"#.utf8))
        }
    }

    @Test("the service-account JWT is RS256-signed with the key and exchanged once for many sends")
    func tokenExchange() async throws {
        let transport = Self.transport()
        let sender = FCMPushSender(account: Self.account, options: FirebaseHTTPOptions(transport: transport))
        try await sender.send([
            PushMessage(token: "device-a", title: "Emergency Alert — Ann", body: "Ann's check-in has expired.", data: ["type": "non_responsive_dependent"]),
            PushMessage(token: "device-b", title: "Ping", body: "Bob is checking on you"),
        ])
        let requests = transport.requests
        #expect(requests.count == 3)
        let exchange = try #require(requests.first)
        #expect(exchange.url.absoluteString == "https://oauth2.example.test/token")
        #expect(exchange.headers["Content-Type"] == "application/x-www-form-urlencoded")
        let form = String(decoding: exchange.body ?? Data(), as: UTF8.self)
        #expect(form.hasPrefix("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion="))
        let jwt = String(form.split(separator: "=").last ?? "")
        let parts = jwt.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        func decode(_ text: String) -> Data? {
            var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            return Data(base64Encoded: base64)
        }
        let headerData = try #require(decode(parts[0]))
        let header = try #require(try JSONSerialization.jsonObject(with: headerData) as? [String: Any])
        #expect(header["alg"] as? String == "RS256")
        #expect(header["typ"] as? String == "JWT")
        let payload = try #require(decode(parts[1]))
        let claims = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
        #expect(claims["iss"] as? String == Self.account.clientEmail)
        #expect(claims["aud"] as? String == Self.account.tokenURI)
        #expect(claims["scope"] as? String == ServiceAccountTokenProvider.messagingScope)
        let iat = try #require(claims["iat"] as? Int)
        #expect(claims["exp"] as? Int == iat + 3600)
        let signatureBytes = try #require(decode(parts[2]))
        let signature = _RSA.Signing.RSASignature(rawRepresentation: signatureBytes)
        #expect(Self.key.publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8), padding: _RSA.Signing.Padding.insecurePKCS1v1_5))

        for send in requests.dropFirst() {
            #expect(send.url.absoluteString == "https://fcm.googleapis.com/v1/projects/lifesignal-test/messages:send")
            #expect(send.headers["Authorization"] == "Bearer ya29.token")
        }
        let message = try #require(try JSONSerialization.jsonObject(with: requests[1].body ?? Data()) as? [String: Any])
        let body = try #require(message["message"] as? [String: Any])
        #expect(body["token"] as? String == "device-a")
        #expect((body["data"] as? [String: String])?["type"] == "non_responsive_dependent")
        #expect((body["notification"] as? [String: String])?["title"] == "Emergency Alert — Ann")
        // Android: high priority, shown in the app's `alerts` channel; a push without a type in `general`.
        let android = try #require(body["android"] as? [String: Any])
        #expect(android["priority"] as? String == "HIGH")
        #expect((android["notification"] as? [String: String]) == ["channel_id": "alerts"])
        let ping = try #require((try JSONSerialization.jsonObject(with: requests[2].body ?? Data()) as? [String: Any])?["message"] as? [String: Any])
        #expect(((ping["android"] as? [String: Any])?["notification"] as? [String: String]) == ["channel_id": "general"])
        #expect((body["apns"] as? [String: Any])?["headers"] as? [String: String] == ["apns-priority": "10", "apns-push-type": "alert"])
    }

    @Test("each kind of push has its Android channel: alerts for missed check-ins and SOS, reminders, general")
    func androidChannels() async throws {
        let expected: [(String?, String)] = [
            ("non_responsive_dependent", "alerts"), ("non_responsive_self", "alerts"), ("alert_activated_received", "alerts"),
            ("alert_cancelled_received", "alerts"), ("check_in_reminder", "reminders"), ("check_in_resumed", "reminders"),
            ("ping_received", "general"), ("contact_added", "general"), ("something_new", "general"), (nil, "general"),
        ]
        for (type, channel) in expected {
            #expect(FCMPushSender.androidChannel(for: type.map { ["type": $0] } ?? [:]) == channel, "\(type ?? "no type")")
        }
        // On the wire, a channel joins an `android.notification` object given beside it rather than replacing it.
        let transport = Self.transport()
        let client = FCMClient(
            projectID: "lifesignal-test", accessTokenProvider: ServiceAccountTokenProvider(account: Self.account, transport: transport),
            options: FirebaseHTTPOptions(transport: transport))
        try await client.send(FCMMessage(target: .token("t"), android: .init(priority: "HIGH", notification: ["tag": "missed-ann"], channelID: "alerts")))
        let sent = try #require(transport.requests.last)
        let android = try #require(
            ((try JSONSerialization.jsonObject(with: sent.body ?? Data()) as? [String: Any])?["message"] as? [String: Any])?["android"] as? [String: Any])
        #expect(android["priority"] as? String == "HIGH")
        #expect(android["notification"] as? [String: String] == ["tag": "missed-ann", "channel_id": "alerts"])
    }

    @Test("an unregistered token is reported, and the other messages still go out")
    func unregistered() async throws {
        let transport = Self.transport(unregistered: ["stale"])
        let sender = FCMPushSender(account: Self.account, options: FirebaseHTTPOptions(transport: transport))
        await #expect {
            try await sender.send([PushMessage(token: "stale", title: "a", body: "b"), PushMessage(token: "fresh", title: "c", body: "d")])
        } throws: { error in
            (error as? FCMPushSender.Failures)?.unregistered == ["stale"]
        }
        #expect(transport.requests.filter { $0.url.host == "fcm.googleapis.com" }.count == 2)
    }

    @Test("a bad private key fails clearly")
    func badKey() async {
        let provider = ServiceAccountTokenProvider(
            account: ServiceAccount(projectID: "p", clientEmail: "e", privateKey: "not a key"), transport: Self.transport())
        await #expect(throws: ServiceAccountTokenProvider.Failure.invalidPrivateKey) { try await provider.accessToken() }
    }
}
