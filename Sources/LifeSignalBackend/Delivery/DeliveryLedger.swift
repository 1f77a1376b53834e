import Foundation
import LifeSignalDomain
import LifeSignalFunctions
import Logging

/// The durable delivery ledger: sends what ``DeliveryQueue`` queued, records every attempt,
/// and retries what failed for a passing reason.
///
/// **At most one sender a row at a time.** A worker *claims* rows before sending: the claim
/// sets `status = 'sending'`, counts the attempt and moves `next_attempt_at` to the end of a
/// lease, in one statement (`FOR UPDATE SKIP LOCKED` on PostgreSQL, so servers sharing a
/// database take disjoint rows; SQLite's single writer serialises claims). A worker that dies
/// mid-send leaves its rows to fall due again when the lease ends; the result of an attempt is
/// recorded only while the row is still that attempt's (`attempts` fences a late answer).
///
/// A message can go out twice only when a worker dies after the provider took it and before
/// the result was recorded; the row's id is then the idempotency key the provider sees
/// (APNs' `apns-id`, an email's `Message-ID`), where it has one.
public struct DeliveryLedger: Sendable {
    let database: any Database
    let clock: BackendClock
    let senders: DeliverySenders
    let policy: DeliveryRetryPolicy
    let logger = Logger(label: "lifesignal.deliveries")
    /// Sends left running after their rule answered, for ``drain(atMost:)``.
    let background = BackgroundSends()

    /// The channels whose rows ``DeliveryQueue`` writes in the current task: bound around every
    /// transaction of the backend's services (``DeliveringDatabase``), so a rule writing a
    /// notification queues exactly the channels its server can send. Push only when unbound.
    @TaskLocal static var channelsInScope: Set<DeliveryChannel> = [.push]
    /// The caps and SMS countries bound with ``channelsInScope``.
    @TaskLocal static var rulesInScope = DeliveryRules()

    /// Sends the queued rows `ids` now (the rule that queued them has committed). Rows another
    /// worker took meanwhile are left to it.
    public func send(ids: [UUID]) async {
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk = SQL.join(ids[start..<min(start + 500, ids.count)].map { "\($0)" }, separator: ", ")
            await claimAndSend("id IN (\(chunk)) AND status = 'queued'")
        }
    }

    /// Claims up to `limit` due rows (queued and due for a try, or left by a worker whose lease
    /// ended) and sends them. Returns how many it claimed.
    @discardableResult
    public func sendDue(limit: Int = 200) async -> Int {
        let now = clock.now()
        do {
            _ = try await database.transaction { try await DeliveryFallback.releaseDue(now: now, in: $0) }
        } catch {
            // The held steps wait for the next turn of the worker; what is queued still goes.
            logger.debug("releasing held deliveries failed: \(error)")
        }
        return await claimAndSend(
            """
            id IN (SELECT id FROM deliveries WHERE status IN ('queued', 'sending') AND next_attempt_at <= \(now) \
            AND channel IN (\(senders.channelList)) ORDER BY next_attempt_at LIMIT \(max(1, limit))\(skipLocked))
            AND status IN ('queued', 'sending') AND next_attempt_at <= \(now)
            """)
    }

    private var skipLocked: SQL { database.dialect.forUpdateSkipLocked }

    @discardableResult
    private func claimAndSend(_ condition: SQL) async -> Int {
        let claimed: [ClaimedDelivery]
        do {
            claimed = try await claim(condition)
        } catch let error as DatabaseError where error.isUnavailable {
            // The database reports its own outage once; the worker would repeat it every second.
            logger.debug("claiming deliveries waits for the database: \(error)")
            return 0
        } catch {
            logger.warning("claiming deliveries failed: \(error)")
            return 0
        }
        guard !claimed.isEmpty else { return 0 }
        await sendAll(claimed)
        return claimed.count
    }

    /// Results are recorded this many at a time while the rest are still being sent, not all
    /// at the end: a server that dies mid-batch then leaves at most this many messages (plus
    /// those in flight) that were sent but not recorded, and so go out again.
    public static let recordEvery = 8

    private func claim(_ condition: SQL) async throws -> [ClaimedDelivery] {
        let now = clock.now()
        let leaseEnd = now.addingTimeInterval(policy.lease)
        return try await database.transaction { connection in
            try await connection.query(
                """
                UPDATE deliveries SET status = 'sending', attempts = attempts + 1, next_attempt_at = \(leaseEnd), updated_at = \(now)
                WHERE channel IN (\(senders.channelList)) AND 
                """ + condition + SQL.raw(" RETURNING " + ClaimedDelivery.columns)
            ).map(ClaimedDelivery.init(row:))
        }
    }

    /// Sends with a bounded number in flight: one slow provider must not hold up the rest, and
    /// a sweep's thousands must not open thousands of connections.
    private func sendAll(_ claimed: [ClaimedDelivery]) async {
        await withTaskGroup(of: (ClaimedDelivery, DeliveryOutcome).self) { group in
            var pending: [(ClaimedDelivery, DeliveryOutcome)] = []
            var next = claimed.makeIterator()
            for _ in 0..<policy.concurrency {
                guard let delivery = next.next() else { break }
                group.addTask { (delivery, await senders.send(delivery, timeout: policy.attemptTimeout)) }
            }
            while let result = await group.next() {
                pending.append(result)
                if let delivery = next.next() {
                    group.addTask { (delivery, await senders.send(delivery, timeout: policy.attemptTimeout)) }
                }
                if pending.count >= Self.recordEvery {
                    await recordLogging(pending)
                    pending = []
                }
            }
            if !pending.isEmpty { await recordLogging(pending) }
        }
    }

    private func recordLogging(_ results: [(ClaimedDelivery, DeliveryOutcome)]) async {
        do {
            try await record(results)
        } catch {
            // The rows stay claimed; their lease ends and they are tried again.
            logger.warning("recording \(results.count) delivery results failed: \(error)")
        }
    }

    private func record(_ results: [(ClaimedDelivery, DeliveryOutcome)]) async throws {
        let now = clock.now()
        try await database.transaction { connection in
            for (delivery, outcome) in results {
                let mine: SQL = " id = \(delivery.id) AND status = 'sending' AND attempts = \(delivery.attempts)"
                switch outcome {
                case .sent(let providerID):
                    try await connection.query(
                        """
                        UPDATE deliveries SET status = 'sent', provider_message_id = \(providerID), sent_at = \(now), \
                        last_error = NULL, updated_at = \(now) WHERE
                        """ + mine)
                case .transient(let error) where delivery.attempts < policy.maximumAttempts:
                    let retry = now.addingTimeInterval(policy.delay(afterAttempt: delivery.attempts))
                    try await connection.query(
                        """
                        UPDATE deliveries SET status = 'queued', next_attempt_at = \(retry), last_error = \(error), \
                        updated_at = \(now) WHERE
                        """ + mine)
                case .transient(let error), .permanent(let error):
                    try await connection.query(
                        "UPDATE deliveries SET status = 'failed', last_error = \(error), updated_at = \(now) WHERE " + mine)
                    try await DeliveryFallback.releaseNext(after: delivery.id, now: now, in: connection)
                case .addressGone(let error):
                    try await connection.query(
                        "UPDATE deliveries SET status = 'failed', last_error = \(error), updated_at = \(now) WHERE " + mine)
                    try await DeliveryFallback.releaseNext(after: delivery.id, now: now, in: connection)
                    if delivery.channel == .push, let user = delivery.recipient {
                        // A dead token would fail every later push too.
                        try await connection.query("DELETE FROM push_tokens WHERE token = \(delivery.address) AND user_id = \(user)")
                    } else if delivery.channel == .sms {
                        // An invalid or opted-out number: nothing more is queued for it.
                        try await SMSUnreachable.record(delivery.address, reason: error, now: now, in: connection)
                    }
                }
            }
        }
        for (delivery, outcome) in results { senders.observe(delivery.channel, outcome) }
    }
}

/// How long and how often the ledger tries.
public struct DeliveryRetryPolicy: Sendable, Hashable {
    /// The wait after the first failed attempt; each later one doubles it, up to ``maximumDelay``.
    public var initialDelay: TimeInterval = 10
    public var maximumDelay: TimeInterval = 600
    /// Attempts before a row that keeps failing for passing reasons is given up as failed
    /// (with the defaults, about 40 minutes of trying).
    public var maximumAttempts = 10
    /// How long a claim lasts: longer than one attempt may take, so a slow send is never sent
    /// again by another worker while still running.
    public var lease: TimeInterval = 90
    /// One attempt's bound; past it the attempt counts as a passing failure.
    public var attemptTimeout: Duration = .seconds(60)
    /// Sends in flight at once, per worker.
    public var concurrency = 16
    /// How long a rule waits for the messages it queued before it answers; slower sends go on
    /// in the background (``DeliveryLedger/sendAfterCommit(ids:)``).
    public var afterCommitWait: Duration = .seconds(5)

    public init() {}

    /// The wait before the next attempt after `attempt` failed: exponential, with jitter
    /// (between half and all of it) so rows that failed together do not retry together.
    public func delay(afterAttempt attempt: Int, random: Double = Double.random(in: 0.5...1)) -> TimeInterval {
        let exponent = Double(max(0, min(attempt - 1, 30)))
        return min(maximumDelay, initialDelay * pow(2, exponent)) * random
    }
}

/// A row a worker claimed, with what it needs to send it.
struct ClaimedDelivery: Sendable {
    var id: UUID
    var notificationID: UUID
    var recipient: UserID?
    var channel: DeliveryChannel
    var address: String
    var kind: NotificationType
    var title: String
    var body: String
    var data: [String: String]
    var alertID: UUID?
    var attempts: Int
    /// The topic of a topic message's row (kind `topic`, ``TopicDelivery``), else `nil`.
    var topic: String?

    static let columns = "id, notification_id, user_id, channel, address, kind, title, body, data, alert_id, attempts"

    init(row: SQLRow) throws {
        id = try row.uuid("id")
        notificationID = try row.uuid("notification_id")
        recipient = row.optionalUUID("user_id").map { UserID($0) }
        let channelName = try row.string("channel")
        guard let channel = DeliveryChannel(rawValue: channelName) else { throw DatabaseError.decoding("unknown channel \(channelName)") }
        self.channel = channel
        address = try row.string("address")
        let kindName = try row.string("kind")
        kind = NotificationType(rawValue: kindName) ?? .system
        title = try row.string("title")
        body = try row.string("body")
        data = (try? JSONDecoder().decode([String: String].self, from: Data(try row.string("data").utf8))) ?? [:]
        alertID = row.optionalUUID("alert_id")
        attempts = try row.int("attempts")
        topic = kindName == TopicDelivery.kind ? data["topic"] : nil
    }
}
