import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// One push message for one device token.
public struct PushMessage: Sendable, Hashable, Codable {
    public var token: String
    public var title: String
    public var body: String
    /// Key-value data the app reads when the push opens it (`type`, `notificationId`, …).
    public var data: [String: String]

    public init(token: String, title: String, body: String, data: [String: String] = [:]) {
        self.token = token
        self.title = title
        self.body = body
        self.data = data
    }
}

/// Delivers pushes to devices. Production plugs in FCM or APNs; the default only records, so
/// a server without push credentials still keeps every notification in the database and the
/// change feed, which is where the app's history reads them from.
///
/// Delivery happens after the transaction that created the notifications has committed, in
/// batches (a sweep may produce thousands). A failure is logged and never undoes the rule that
/// caused it: the notification row is already there.
public protocol PushSender: Sendable {
    func send(_ messages: [PushMessage]) async throws
}

/// Keeps every push it is asked to send, for tests, the demo and servers without push keys.
public actor RecordingPushSender: PushSender {
    public private(set) var sent: [PushMessage] = []
    /// Keeps memory bounded on a long-running server: older pushes are dropped first.
    private let capacity: Int

    public init(capacity: Int = 100_000) { self.capacity = capacity }

    public func send(_ messages: [PushMessage]) async throws {
        sent.append(contentsOf: messages)
        if sent.count > capacity { sent.removeFirst(sent.count - capacity) }
    }

    /// Pushes sent to `token`, oldest first.
    public func messages(to token: String) -> [PushMessage] { sent.filter { $0.token == token } }

    public func reset() { sent.removeAll() }
}
