import Dependencies

/// Runs a feature for real: holds its state, reduces the actions sent to it, and performs the
/// effects the reducer returns.
///
/// A store lives on the main actor because state is what a screen draws, and because one
/// actor reducing one action at a time is what makes a reducer's `inout` state safe without
/// locks. Effects run as tasks off the main actor and come back with actions.
///
/// Dependencies are those of the context the store is created in (plus `withDependencies`
/// overrides), and they stay attached to every effect for the store's whole life:
///
/// ```swift
/// let store = withDependencies {
///     $0.checkInClient = .localBackend(…)
/// } operation: {
///     Store(initialState: CheckInFeature.State()) { CheckInFeature() }
/// }
/// await store.send(.task).finish()
/// ```
///
/// When the store is released, the effects still running are cancelled.
@MainActor
public final class Store<State: Sendable, Action: Sendable> {
    let runtime: StoreRuntime<State, Action>

    /// Creates a store in the current dependency context.
    ///
    /// - Parameters:
    ///   - initialState: The state to start from.
    ///   - reducer: Builds the reducer; a closure, as in TCA, so that the reducer's
    ///     `@Dependency` properties are created in the store's dependency context.
    ///   - prepareDependencies: Overrides applied on top of the current context.
    public init<R: Reducer<State, Action>>(
        initialState: State,
        reducer: () -> R,
        withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in }
    ) {
        runtime = Dependencies.withDependencies(prepareDependencies) {
            StoreRuntime(initialState: initialState, reducer: reducer())
        }
    }

    deinit {
        runtime.cancelAll()
    }

    /// The current state.
    public var state: State { runtime.state }

    /// Calls `observer` after each action is reduced, with whether an effect sent it.
    ///
    /// For drivers outside a screen: the command line reads a failure's ``DomainError`` from
    /// the response actions (its exit code depends on the error, which state keeps only as
    /// words), and a logger could trace a session. One observer at a time.
    public func observeActions(_ observer: @escaping @MainActor (_ action: Action, _ fromEffect: Bool) -> Void) {
        runtime.didReduce = { action, origin, _ in observer(action, origin == .effect) }
    }

    /// Reduces `action` now and starts the effects it returns.
    ///
    /// - Returns: A handle on those effects; `await store.send(.x).finish()` waits until they,
    ///   and the effects of every action they send back, have finished.
    @discardableResult
    public func send(_ action: Action) -> StoreTask {
        StoreTask(bag: runtime.send(action, origin: .external))
    }
}

/// The effects started by one ``Store/send(_:)``: wait for them or cancel them.
///
/// It covers the effects of the action itself and, transitively, of every action those effects
/// send back, so a command-line tool can `await store.send(.checkInTapped).finish()` and then
/// read the final state.
public struct StoreTask: Hashable, Sendable {
    let rawValue: Task<Void, Never>?

    init(bag: TaskBag) {
        // With no task in the bag nothing can ever be added to it (only a running effect adds),
        // so there is nothing to wait for.
        guard !bag.isEmpty else {
            rawValue = nil
            return
        }
        rawValue = Task {
            await withTaskCancellationHandler {
                await bag.waitForAll()
            } onCancel: {
                bag.cancelAll()
            }
        }
    }

    /// Waits until every effect of the action, and of the actions they sent, has finished.
    /// Cancelling the waiting task cancels those effects.
    public func finish() async {
        await rawValue?.cancellableValue
    }

    /// Cancels the effects of the action, and of the actions they sent.
    public func cancel() {
        rawValue?.cancel()
    }

    /// Whether ``cancel()`` has been called.
    public var isCancelled: Bool {
        rawValue?.isCancelled ?? false
    }
}
