import ConcurrencyExtras
import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalDomain

/// This device's messaging identity (seed `002_…`'s `MessagingClient`, FCM's `Messaging`), the
/// same on every backend.
///
/// There is no FCM device SDK on Linux, so the adapters make the token themselves (random,
/// 256 bits) and register it with the backend as a push token; the backend keeps every push
/// it sends to a token in that token's inbox (and hands it to FCM too when configured), and
/// ``messageStream`` follows the inbox. Refusals are ``DomainError``s; read them with
/// ``MessagingError``.
@DependencyClient
public struct MessagingClient: Sendable {
    /// This device's token: made and registered for the signed-in person on the first call,
    /// the same afterwards (registered again, unchanged, if another person signs in on this
    /// device). Signed out is ``DomainError/unauthenticated``.
    public var token: @Sendable () async throws -> String
    /// Unregisters the token (its topics and inbox go with it); the next ``token`` is new.
    /// Without a token it does nothing.
    public var deleteToken: @Sendable () async throws -> Void
    /// Messages sent to `topic` reach this device from now on. A name outside FCM's rule is
    /// ``DomainError/invalidArgument(_:)`` (``MessagingError/invalidTopic``).
    public var subscribe: @Sendable (_ topic: String) async throws -> Void
    /// Stops messages to `topic` reaching this device; not subscribed is fine.
    public var unsubscribe: @Sendable (_ topic: String) async throws -> Void
    /// The current token (made if there is none yet and someone is signed in), then each new
    /// one after ``deleteToken``; never the same twice in a row.
    public var tokenStream: @Sendable () -> AsyncStream<String> = { AsyncStream { $0.finish() } }
    /// Each message for this device's current token that it has not been handed yet, once,
    /// oldest first: what arrives while the stream runs, and what waited in the inbox since the
    /// device last looked (as FCM holds messages for a device that is offline). It follows the
    /// token across ``deleteToken``; without a token it waits for one.
    public var messageStream: @Sendable () -> AsyncStream<RemoteMessage> = { AsyncStream { $0.finish() } }
}

extension MessagingClient: TestDependencyKey {
    public static let testValue = MessagingClient()

    /// One device in memory: a believable token, topics checked by the real rule, and a
    /// welcome message on the stream.
    public static var previewValue: MessagingClient {
        struct Device {
            var token: String?
            var topics: Set<String> = []
        }
        let device = LockIsolated(Device())
        @Sendable func current() -> String {
            device.withValue { state in
                if let token = state.token { return token }
                let token = MessagingRules.makeDeviceToken()
                state.token = token
                return token
            }
        }
        return MessagingClient(
            token: { current() },
            deleteToken: { device.withValue { $0 = Device() } },
            subscribe: { topic in
                let name = try MessagingRules.validateTopic(topic)
                device.withValue { _ = $0.topics.insert(name) }
            },
            unsubscribe: { topic in
                let name = try MessagingRules.validateTopic(topic)
                device.withValue { _ = $0.topics.remove(name) }
            },
            tokenStream: { AsyncStream { $0.yield(current()) } },
            messageStream: {
                AsyncStream { continuation in
                    continuation.yield(
                        RemoteMessage(
                            id: UUID(uuidString: "00000000-0000-4000-8000-00000000d001") ?? UUID(), title: "Ping from Maya", body: "Are you OK?",
                            data: ["type": "ping_received"], sentAt: Date(timeIntervalSince1970: 1_800_000_000)))
                }
            })
    }
}

extension DependencyValues {
    public var messagingClient: MessagingClient {
        get { self[MessagingClient.self] }
        set { self[MessagingClient.self] = newValue }
    }
}
