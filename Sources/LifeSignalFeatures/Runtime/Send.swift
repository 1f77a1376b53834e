/// Feeds actions from a running effect back into the store that started it.
///
/// Effects never touch state: the only way they can change anything is by sending an action,
/// which the store then runs through the reducer on the main actor. `Send` is that one door.
/// It is `@MainActor` so that `await send(.x)` hops to the store's actor, and it is `Sendable`
/// so it can be captured by the effect's operation, which runs on the global executor.
///
/// An action sent from a task that has been cancelled is dropped. This is what makes
/// cancellation reliable: once ``Effect/cancel(id:)`` has run, a response that was already in
/// flight can never land in state afterwards.
@MainActor
public struct Send<Action: Sendable>: Sendable {
    let send: @MainActor @Sendable (Action) -> Void

    /// Creates a `Send` from a closure; stores create these, and tests of a lone effect may too.
    nonisolated public init(send: @escaping @MainActor @Sendable (Action) -> Void) {
        self.send = send
    }

    /// Sends `action` to the store, unless the current task has been cancelled.
    public func callAsFunction(_ action: Action) {
        guard !Task.isCancelled else { return }
        send(action)
    }
}
