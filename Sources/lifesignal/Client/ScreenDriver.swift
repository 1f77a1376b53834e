import Foundation
import LifeSignalAdapters
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFeatures

/// Runs one screen's reducer for a client command, as a phone would: actions in, effects
/// awaited, state read back.
///
/// A failure ends the command with the right exit code: a request's ``DomainError`` is taken
/// from the response action an effect sends back (state keeps only its words); a refusal the
/// screen makes itself, before any request, is bad input (``DomainError/invalidArgument(_:)``)
/// in the screen's own words.
@MainActor
final class ScreenDriver<State: Sendable, Action: Sendable> {
    let store: Store<State, Action>
    private let errorMessage: (State) -> String?
    private var failure: DomainError?
    /// The actions effects sent back, in order: commands read results (counts, ids) from them.
    private(set) var responses: [Action] = []
    /// Told of each action an effect sends back, as it arrives (for commands that follow a
    /// live effect, such as `watch`).
    var onResponse: ((Action) -> Void)?

    init<R: Reducer<State, Action>>(
        _ state: State, clients: ClientSet, errorMessage: @escaping (State) -> String?, _ reducer: @escaping () -> R
    ) {
        store = Store(initialState: state, reducer: reducer) { clients.install(into: &$0) }
        self.errorMessage = errorMessage
        store.observeActions { [weak self] action, fromEffect in
            guard let self, fromEffect else { return }
            responses.append(action)
            if failure == nil { failure = Self.domainError(in: action) }
            onResponse?(action)
        }
    }

    var state: State { store.state }

    /// Sends `action` and waits for its effects (and theirs); throws what went wrong.
    func send(_ action: Action) async throws {
        await store.send(action).finish()
        if let failure { throw failure }
        if let message = errorMessage(store.state) { throw DomainError.invalidArgument(message) }
    }

    /// Sends `action` without waiting (for screens with a live effect), then waits until
    /// `ready` holds, for at most `seconds` (forever when `nil`).
    func start(_ action: Action, until ready: (State) -> Bool, seconds: Double? = 30) async throws {
        store.send(action)
        try await wait(until: ready, seconds: seconds)
    }

    /// Waits until `ready` holds, or an effect reports a failure, for at most `seconds`
    /// (forever when `nil`).
    func wait(until ready: (State) -> Bool, seconds: Double? = 30) async throws {
        let deadline = seconds.map { Date().addingTimeInterval($0) } ?? .distantFuture
        while !ready(store.state), failure == nil, Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        if let failure { throw failure }
        guard ready(store.state) else { throw DomainError.internal("The server did not answer within \(Int(seconds ?? 0)) s") }
    }

    /// The first ``DomainError`` inside an action (`.loaded(.failure(error))` and the like).
    static func domainError(in value: Any) -> DomainError? {
        if let error = value as? DomainError { return error }
        for child in Mirror(reflecting: value).children {
            if let error = domainError(in: child.value) { return error }
        }
        return nil
    }
}

extension ClientOptions {
    /// Every client, over the server this command talks to.
    func clients() throws -> ClientSet {
        try AdapterFactory(supabase: try adapters()).clients(ProviderSelection(default: .supabase))
    }
}
