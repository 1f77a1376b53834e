import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalLocalAdapters
import LifeSignalTestSupport
import SupabaseREST

/// Alice's and Bob's devices on one backend: each a ``MessagingClient`` of its own adapters,
/// signed in as the person ``AdapterHarness`` signed in, beside that harness's other clients.
struct MessagingHarness: Sendable {
    let people: AdapterHarness
    let alice: Device
    let bob: Device

    /// One device: its messaging, and the sign-in it shares with it.
    struct Device: Sendable {
        var messaging: MessagingClient
        var auth: LifeSignalClients.AuthClient
    }

    var backend: LifeSignalBackend { people.test.backend }

    static func start(_ kind: AdapterBackend) async throws -> MessagingHarness {
        let people = try await AdapterHarness.start(kind)
        return MessagingHarness(
            people: people,
            alice: try await device(kind, people, phone: AdapterHarness.alicePhone, code: "111111"),
            bob: try await device(kind, people, phone: AdapterHarness.bobPhone, code: "222222"))
    }

    func stop() async { await people.stop() }

    /// A new device of one adapter kind, signed in. Wire streams poll every 100 ms, so the
    /// contract's waits of seconds are never close.
    static func device(_ kind: AdapterBackend, _ people: AdapterHarness, phone: String, code: String) async throws -> Device {
        let device: Device
        switch kind {
        case .local:
            let adapters = LocalAdapters(backend: people.test.backend)
            device = Device(messaging: adapters.messagingClient, auth: adapters.authClient)
        case .supabaseSQLite, .supabasePostgres:
            guard let server = people.server else { throw DomainError.internal("The Supabase harness has no server") }
            let adapters = SupabaseAdapters(
                client: SupabaseClient(
                    supabaseURL: server.baseURL, supabaseKey: server.anonKey, options: SupabaseClientOptions(auth: .init(storage: InMemoryAuthStorage()))))
            device = Device(messaging: adapters.messagingClient(device: MessagingDevice(), pollInterval: .milliseconds(100)), auth: adapters.authClient)
        case .firebase:
            let adapters = AdapterHarness.firebaseAdapters(people.test.backend)
            device = Device(messaging: adapters.messagingClient, auth: adapters.authClient)
        }
        try await device.auth.sendCode(try PhoneNumber(phone))
        _ = try await device.auth.verifyCode(try PhoneNumber(phone), try OneTimeCode(code))
        return device
    }

    /// Sends to a topic as the backend does, with the service role: over HTTP with the
    /// service key when there is a server (as an operator's edge function would call
    /// `send-topic-message`), in-process otherwise.
    @discardableResult
    func sendToTopic(_ topic: String, _ title: String, _ body: String = "", data: [String: String] = [:]) async throws -> Int {
        guard let server = people.server else {
            return try await backend.messaging.sendToTopic(caller: .service, topic: topic, title: title, body: body, data: data)
        }
        let request = try JSONEncoder().encode(SendTopicMessageRequest(topic: topic, title: title, body: body, data: data))
        let reply = try await server.request(
            "POST", "/functions/v1/send-topic-message", apiKey: server.serviceKey, bearer: server.serviceKey, body: request)
        guard reply.status == 200, let count = reply.json?["count"] as? Int else {
            throw DomainError.internal("send-topic-message answered \(reply.status): \(reply.text)")
        }
        return count
    }

    /// Whose push token `token` is, read behind the adapters' backs.
    func owner(of token: String) async throws -> UUID? {
        try await backend.database.query("SELECT user_id FROM push_tokens WHERE token = \(token)").first?.uuid("user_id")
    }
}
