import Dependencies
import Foundation
import LifeSignalDomain

/// The clients of the configured backends, opened once, on first use.
///
/// Every client's `liveValue` (`LiveDependencyKeys.swift`) is one of ``shared``'s ``deferred``
/// clients, so a feature run in the live context with no overrides reaches whatever the
/// configuration selects. Opening is lazy because it is async (the embedded backend opens
/// and migrates its database) while a `liveValue` is a synchronous static; and it is shared,
/// so every client and every caller uses one set, one session and one database connection.
///
/// A failed open is not kept: the next call opens again, so a configuration fixed while the
/// process runs (a config file rewritten, a database that came up) takes effect without a
/// restart. A successful open is kept until ``close()``.
public final class LiveClients: Sendable {
    /// Where the configuration comes from at each open.
    private enum Source: Sendable {
        /// Read at each attempt, so a rewritten `LIFESIGNAL_CONFIG` file is seen on retry.
        case environment(@Sendable () -> [String: String])
        case configuration(LiveConfiguration)
    }

    /// An opened set, and how to close the embedded backend opened with it.
    private struct Opened: Sendable {
        var clients: ClientSet
        var close: (@Sendable () async -> Void)?
    }

    private struct State: Sendable {
        var source: Source
        /// Opens the `local` provider, when the app links the embedded backend.
        var embedded: EmbeddedBackend?
        /// The open in progress or done; `nil` before the first call and after a failure.
        var opening: Task<Opened, any Error>?
    }

    private let state: LockIsolated<State>

    /// The clients of the process's configuration: `ProcessInfo.processInfo.environment`
    /// and its `LIFESIGNAL_CONFIG` file, read when the set is first opened (unless
    /// ``bootstrap(_:)`` replaced them).
    public static let shared = LiveClients(environment: { ProcessInfo.processInfo.environment })

    /// Clients of a configuration built in code; `embedded` opens the `local` provider.
    public init(configuration: LiveConfiguration, embedded: EmbeddedBackend? = nil) {
        state = LockIsolated(State(source: .configuration(configuration), embedded: embedded))
    }

    /// Clients of an environment, read (with its config file) at each attempt to open.
    public init(environment: @escaping @Sendable () -> [String: String], embedded: EmbeddedBackend? = nil) {
        state = LockIsolated(State(source: .environment(environment), embedded: embedded))
    }

    /// Lets ``shared`` open the `local` provider with `embedded` (`LocalAdapters.embeddedBackend()`
    /// from `LifeSignalLocalAdapters`): the client library does not link the backend itself.
    /// Call it at start-up, before a live client is used.
    public static func register(_ embedded: EmbeddedBackend) {
        shared.state.withValue { $0.embedded = embedded }
    }

    /// Points ``shared`` at `configuration` instead of the process environment, as swift-log's
    /// `LoggingSystem.bootstrap` points logging somewhere: for an app that builds its
    /// settings in code, and for a test that must read neither the real environment nor the
    /// home directory. Call it at start-up, before a live client is used.
    ///
    /// - Throws: ``DomainError/failedPrecondition(_:)`` while ``shared`` has a set open (or
    ///   opening): clients already handed out would silently change backend. ``close()`` first.
    public static func bootstrap(_ configuration: LiveConfiguration) throws(DomainError) {
        try shared.replaceSource(.configuration(configuration))
    }

    private func replaceSource(_ source: Source) throws(DomainError) {
        let replaced = state.withValue { state -> Bool in
            guard state.opening == nil else { return false }
            state.source = source
            return true
        }
        guard replaced else { throw .failedPrecondition("The live clients are already open; close them before bootstrapping") }
    }

    /// The opened set, opening it first if needed; concurrent callers share one open.
    ///
    /// - Throws: the open's failure as a ``DomainError``: a configuration refusal
    ///   (``DomainError/invalidArgument(_:)`` naming the setting), or
    ///   ``DomainError/failedPrecondition(_:)`` when a backend cannot be reached.
    public func clients() async throws(DomainError) -> ClientSet {
        let task = state.withValue { state in
            if let opening = state.opening { return opening }
            let source = state.source
            let embedded = state.embedded
            // Detached: the open serves every caller, so it takes none of the first one's task locals or priority.
            let opening = Task.detached { try await Self.open(source, embedded: embedded) }
            state.opening = opening
            return opening
        }
        do { return try await task.value.clients } catch {
            // Forget this failure (unless a newer attempt already replaced it), so the next call retries.
            state.withValue { if $0.opening == task { $0.opening = nil } }
            throw Self.domainError(error)
        }
    }

    /// Closes the embedded backend, if one was opened; the next call opens again.
    public func close() async {
        let task = state.withValue { state in
            defer { state.opening = nil }
            return state.opening
        }
        guard let opened = try? await task?.value else { return }
        await opened.close?()
    }

    private static func open(_ source: Source, embedded: EmbeddedBackend?) async throws -> Opened {
        let configuration: LiveConfiguration
        switch source {
        case .environment(let environment): configuration = try LiveConfiguration(environment: environment())
        case .configuration(let given): configuration = given
        }
        var factory = AdapterFactory(supabase: configuration.supabase?.adapters(), firebase: try configuration.firebase?.adapters())
        var close: (@Sendable () async -> Void)?
        if let local = configuration.local {
            guard let embedded else {
                throw DomainError.invalidArgument(
                    "A capability is set to local, but this app does not include the embedded backend (LifeSignalLocalAdapters; register it with LiveClients.register)"
                )
            }
            let opened = try await embedded.open(local)
            close = opened.close
            factory.local = opened.adapters
        }
        do { return Opened(clients: try factory.clients(configuration.selection), close: close) } catch {
            await close?()
            throw error
        }
    }

    private static func domainError(_ error: any Error) -> DomainError {
        if let domain = error as? DomainError { return domain }
        return .failedPrecondition("The live clients cannot be opened: \(error)")
    }
}
