import FirebaseREST
import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import Logging

/// Delivers the backend's pushes through FCM HTTP v1, the sender `lifesignal serve` uses
/// when a service account is configured (`LIFESIGNAL_FCM_SERVICE_ACCOUNT`).
///
/// Each message is sent on its own: FCM v1 has no batch endpoint, and one bad token must not
/// stop the others. Failures are logged by token prefix (never the whole token) and reported
/// once, after every message was tried.
public struct FCMPushSender: PushSender {
    public struct Failures: Error, Sendable {
        public let failed: Int
        public let unregistered: [String]
    }

    let client: FCMClient
    let logger = Logger(label: "lifesignal.fcm")

    public init(client: FCMClient) { self.client = client }

    public init(account: ServiceAccount, options: FirebaseHTTPOptions = FirebaseHTTPOptions()) {
        self.client = FCMClient(
            projectID: account.projectID,
            accessTokenProvider: ServiceAccountTokenProvider(account: account, transport: options.transport),
            options: options)
    }

    public func send(_ messages: [PushMessage]) async throws {
        var failed = 0
        var unregistered: [String] = []
        for message in messages {
            let fcm = FCMMessage(
                target: .token(message.token), notification: .init(title: message.title, body: message.body), data: message.data,
                apns: .init(headers: ["apns-priority": "10", "apns-push-type": "alert"]),
                android: .init(priority: "HIGH", channelID: Self.androidChannel(for: message.data)))
            do {
                try await client.send(fcm)
            } catch let error as FCMError where error.code == .unregistered {
                unregistered.append(message.token)
                failed += 1
            } catch {
                logger.warning("FCM send to \(message.token.prefix(8))… failed: \(error)")
                failed += 1
            }
        }
        if failed > 0 { throw Failures(failed: failed, unregistered: unregistered) }
    }

    /// The Android notification channel a push is shown in, by its `data["type"]`: `alerts`
    /// (missed check-ins, SOS and their all-clear, which must be heard like the alert was),
    /// `reminders` (check-in reminders and pauses), `general` for everything else. The app
    /// creates these three channels, `alerts` with high importance.
    public static func androidChannel(for data: [String: String]) -> String {
        switch data["type"].flatMap(NotificationType.init(rawValue:))?.category {
        case .alerts: "alerts"
        case .checkIns: "reminders"
        default: "general"
        }
    }
}
