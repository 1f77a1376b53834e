import Foundation
import LifeSignalBackend
import Logging
import PostgresNIO
import Synchronization

/// Whether PostgreSQL answers, as the server last found out, and the checks that find out.
///
/// postgres-nio's pool, left alone, queues every request while it cannot connect, trips its
/// circuit breaker only after 60 s, and after an outage waits out a backoff of up to a
/// minute before it tries again. So the server keeps its own view: a failure that may mean
/// the database is gone (a connection error, a lease not granted in time) starts one check —
/// a fresh connection and `SELECT 1` within a short timeout, and a second one shortly after if
/// it fails. While those checks fail the database is *down*: requests are refused at once (503, no waiting), and the check runs
/// again every ``recheckInterval`` until it passes; then the pools are replaced by fresh
/// ones without backoff (``onRecovered``) and requests go through again.
final class DatabaseAvailability: Sendable {
    /// How often a down database is checked again; clients are told about as much
    /// (``DatabaseError/retryAfterSeconds``).
    static let recheckInterval = Duration.milliseconds(500)
    /// How long after a failed check the second one runs, which must fail too before the
    /// database counts as down.
    static let confirmationDelay = Duration.milliseconds(250)
    /// How long a passing check answers ``isReachable(maxAge:)`` without checking again.
    static let freshness = Duration.seconds(1)

    private struct State {
        var down = false
        var leaseTimeoutValue: Duration
        var statementDeadlineValue = Duration.seconds(600)
        var probing: Task<Bool, Never>?
        var recovering: Task<Void, Never>?
        var lastPass: ContinuousClock.Instant?
    }

    private let state: Mutex<State>
    private let probe: @Sendable (Duration) async -> Bool
    private let onRecovered: @Sendable () -> Void
    private let logger: Logger

    init(leaseTimeout: Duration, logger: Logger, probe: @escaping @Sendable (Duration) async -> Bool, onRecovered: @escaping @Sendable () -> Void) {
        self.state = Mutex(State(leaseTimeoutValue: leaseTimeout))
        self.logger = logger
        self.probe = probe
        self.onRecovered = onRecovered
    }

    /// True from a failed check until a check passes again.
    var isDown: Bool { state.withLock { state in state.down } }

    /// The longest a request waits for a pooled connection before it is answered 503.
    var leaseTimeout: Duration {
        get { state.withLock { state in state.leaseTimeoutValue } }
        set { state.withLock { state in state.leaseTimeoutValue = newValue } }
    }

    /// See ``PostgresDatabase/statementDeadline``.
    var statementDeadline: Duration {
        get { state.withLock { state in state.statementDeadlineValue } }
        set { state.withLock { state in state.statementDeadlineValue = newValue } }
    }

    /// The connect timeout of one check: short, since a reachable database answers in
    /// milliseconds, but not so short that a loaded machine's slow accept reads as an outage.
    private var probeTimeout: Duration { min(leaseTimeout, .seconds(5)) }

    /// A failure that may mean the database is gone: check now (one check at a time).
    func suspect() { _ = startProbe() }

    /// Whether the database answers: `false` at once while it is down, a recent passing check's
    /// answer, or a new check (for `/ready`).
    func isReachable(maxAge: Duration = freshness) async -> Bool {
        let cached: Bool? = state.withLock { state in
            if state.down { return false }
            if let lastPass = state.lastPass, lastPass.duration(to: .now) < maxAge { return true }
            return nil
        }
        if let cached { return cached }
        return await startProbe().value
    }

    /// Waits until the database is not known to be down (a cancelled wait throws).
    func waitUntilUp() async throws {
        while isDown { try await Task.sleep(for: .milliseconds(100)) }
    }

    private func startProbe() -> Task<Bool, Never> {
        state.withLock { state in
            if let probing = state.probing { return probing }
            let task = Task { await self.checkOnce() }
            state.probing = task
            return task
        }
    }

    private func checkOnce() async -> Bool {
        var reachable = await probe(probeTimeout)
        if !reachable, !isDown {
            // One failed connection is not yet an outage (a loaded machine's slow accept,
            // PostgreSQL at `max_connections` for a moment), and calling it one answers every
            // request 503: a second check a moment later must fail too.
            try? await Task.sleep(for: Self.confirmationDelay)
            reachable = await probe(probeTimeout)
        }
        let wentDown: Bool = state.withLock { state in
            state.probing = nil
            if reachable {
                state.lastPass = .now
                return false
            }
            guard !state.down else { return false }
            state.down = true
            state.recovering = Task { await self.recover() }
            return true
        }
        if wentDown { logger.error("PostgreSQL is unreachable; requests are answered 503 until it is back") }
        return reachable
    }

    private func recover() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.recheckInterval)
            guard await probe(probeTimeout) else { continue }
            // Fresh pools first, so the first request after the flag clears finds no backoff.
            onRecovered()
            state.withLock { state in
                state.down = false
                state.lastPass = .now
                state.recovering = nil
            }
            logger.notice("PostgreSQL is reachable again")
            return
        }
    }

    func stop() {
        state.withLock { state in
            state.recovering?.cancel()
            state.recovering = nil
        }
    }
}

extension PostgresDatabase {
    enum Pool { case main, anonymous, authenticated }

    /// Runs `body` on a pooled connection, failing fast: refused at once while the database is
    /// down, and with ``DatabaseError/unavailable(_:)`` when no connection is leased within the
    /// lease timeout (the body itself is not timed: a long sweep may take its time).
    /// Connection-class failures become `.unavailable` and start an availability check.
    func withLease<T: Sendable>(_ pool: Pool = .main, _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        guard DatabasePatience.waitsForDatabase else { return try await leaseOnce(pool, body) }
        while true {
            do {
                return try await leaseOnce(pool, body)
            } catch let error as DatabaseError where error.isUnavailable {
                // Give the check a moment to conclude, then wait until it passes.
                try await Task.sleep(for: .milliseconds(100))
                try await availability.waitUntilUp()
            }
        }
    }

    /// The lease and the work run in a task of their own, and the caller waits for whichever
    /// comes first: the work's end, no lease within the lease timeout, or — past the statement
    /// deadline and a little grace — work the watchdog could not end. A task group would not
    /// do: it awaits its children, so a lease request or a statement the pool never answers
    /// would hold the request for good (seen around fast PostgreSQL restarts: 1 request in
    /// about 1,300 waited past the client's 120 s). Work given up on is cancelled and left to
    /// end on its own; if its lease comes later, it is handed straight back.
    ///
    /// One task and one ``LeaseWaiter`` per lease: the work reports its own end, and the
    /// deadlines are checked by the database's one ``LeaseClock`` (a task forwarding the
    /// result, a task asleep for the limits, then a timer per limit were each a measurable
    /// share of a read).
    private func leaseOnce<T: Sendable>(_ pool: Pool, _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        if availability.isDown { throw DatabaseError.unavailable("PostgreSQL at \(location) is unreachable") }
        let clients = pools.current
        let client =
            switch pool {
            case .main: clients.main
            case .anonymous: clients.anonymous
            case .authenticated: clients.authenticated
            }
        let timeout = availability.leaseTimeout
        let deadline = DatabasePatience.statementDeadline ?? statementDeadline
        let waiter = LeaseWaiter<T>(leaseTimeout: timeout, deadline: deadline, grace: Self.abandonGrace, logger: logger)
        let clock = leaseClock
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiter.set(continuation)
                clock.watch(waiter)
                // Created after `set`, so its result cannot come before anyone waits for it;
                // an unstructured task keeps the caller's task-local values.
                waiter.set(
                    Task {
                        do {
                            let value = try await client.withConnection { connection in
                                guard waiter.leased(connection) else { throw LeaseTimedOut() }
                                defer { waiter.released() }
                                return try await body(connection)
                            }
                            waiter.resume(.finished(.success(value)))
                        } catch {
                            waiter.resume(.finished(.failure(error)))
                        }
                    })
            }
        } onCancel: {
            waiter.cancelWork()
        }
        clock.forget(waiter)
        do {
            switch outcome {
            case .finished(let result): return try result.get()
            case .noLease:
                waiter.cancelWork()
                throw failure(.unavailable("no PostgreSQL connection within \(timeout)"))
            case .stuck:
                waiter.cancelWork()
                logger.error("PostgreSQL work still running \(Self.abandonGrace) after its connection was closed; giving up on it")
                throw failure(.unavailable("PostgreSQL did not answer within \(deadline)"))
            }
        } catch let error as PSQLError {
            throw failure(PostgresTransactionConnection.map(error))
        } catch let error as DatabaseError {
            throw failure(error)
        } catch is LeaseTimedOut {
            throw failure(.unavailable("no PostgreSQL connection within \(timeout)"))
        } catch  where !waiter.wasLeased && !(error is CancellationError) {
            // The pool's own refusals (its circuit breaker, a shut-down pool) come before any
            // statement ran.
            throw failure(.unavailable("PostgreSQL pool: \(error)"))
        }
    }

    /// How long a caller still waits for work whose connection the watchdog closed.
    static let abandonGrace = Duration.seconds(2)

    private func failure(_ error: DatabaseError) -> DatabaseError {
        if error.isUnavailable { availability.suspect() }
        return error
    }

    /// Whether PostgreSQL answers now (a check at most ``DatabaseAvailability/freshness`` old,
    /// or a new one within a short timeout); `/ready` reports it.
    public func isReachable() async -> Bool { await availability.isReachable() }

    /// The longest a request waits for a connection before it is answered 503.
    public var unavailableAfter: Duration {
        get { availability.leaseTimeout }
        set { availability.leaseTimeout = newValue }
    }

    /// How much longer than its connect timeout one availability check may take in all.
    static let probeBound = Duration.seconds(15)

    /// The longest work on one leased connection may take before the connection is closed
    /// under it and the work fails with ``DatabaseError/unavailable(_:)`` (see
    /// ``DatabasePatience/statementDeadline``).
    public var statementDeadline: Duration {
        get { availability.statementDeadline }
        set { availability.statementDeadline = newValue }
    }

    /// Connects once outside the pools (the TCP connection within `timeout`) and runs
    /// `SELECT 1`, all within ``probeBound`` more: a check that could hang (a peer that accepts
    /// the connection and then says nothing) would hold `/ready` and keep the database marked
    /// down for good. The whole check is not held to `timeout` itself: on a loaded machine a
    /// reachable PostgreSQL may take seconds to log a connection in, and calling it down then
    /// would answer every request 503 (seen in the full test suite with a 2 s bound).
    static func probe(_ configuration: PostgresConnection.Configuration, timeout: Duration, logger: Logger) async -> Bool {
        var configuration = configuration
        let (seconds, attoseconds) = timeout.components
        configuration.options.connectTimeout = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        let check = Task {
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            defer { Task { try? await connection.close() } }
            _ = try await connection.query("SELECT 1", logger: logger)
        }
        if case .success? = await TimeLimit.result(of: check, within: timeout + probeBound) { return true }
        return false
    }
}

/// The pools requests lease from, replaced by fresh ones when the database comes back (a
/// pool that failed to connect for a while backs off for up to a minute).
final class PostgresPools: Sendable {
    struct Clients: Sendable {
        let main: PostgresClient
        let anonymous: PostgresClient
        let authenticated: PostgresClient
        let runs: [Task<Void, Never>]
    }

    private struct State {
        var clients: Clients
        var retired: [Task<Void, Never>] = []
    }

    private let state: Mutex<State>
    private let make: @Sendable () -> Clients

    init(make: @escaping @Sendable () -> Clients) {
        self.make = make
        self.state = Mutex(State(clients: make()))
    }

    var current: Clients { state.withLock { $0.clients } }

    /// Swaps in fresh pools; the old ones are shut down once requests that still hold their
    /// connections have had time to finish.
    func replace() {
        let fresh = make()
        let old = state.withLock { state in
            let old = state.clients
            state.clients = fresh
            return old
        }
        let retirement = Task {
            try? await Task.sleep(for: .seconds(30))
            old.runs.forEach { $0.cancel() }
        }
        state.withLock { $0.retired.append(retirement) }
    }

    func close() {
        let (current, retired) = state.withLock { ($0.clients, $0.retired) }
        current.runs.forEach { $0.cancel() }
        // Cancelling a retirement's sleep shuts its pools at once.
        retired.forEach { $0.cancel() }
    }
}
