import ConcurrencyExtras
import IssueReporting

/// Work a reducer asks the store to do after it has changed state: call a client, wait on a
/// clock, send more actions.
///
/// A reducer is a pure function of state and action, so everything with a side effect is
/// *described* here and *performed* by the ``Store``. That split is what lets a ``TestStore``
/// run the same reducer with fake clients and a test clock, and check every action the effects
/// send back.
///
/// An effect is a small tree of operations rather than a single closure so that the store can
/// do the synchronous parts (``send(_:)``, ``cancel(id:)``) at once, in order, on the main
/// actor, and start a task only for real asynchronous work.
public struct Effect<Action: Sendable>: Sendable {
    /// The operations an effect is built from; the store interprets them (see `StoreRuntime`).
    indirect enum Operation: Sendable {
        case none
        case send(Action)
        case run(priority: TaskPriority?, operation: @Sendable (Send<Action>) async -> Void)
        case cancel(id: AnyHashableSendable)
        case cancellable(Effect, id: AnyHashableSendable, cancelInFlight: Bool)
        case merge([Effect])
        case concatenate([Effect])
    }

    let operation: Operation

    init(_ operation: Operation) { self.operation = operation }

    /// No work: the reducer only changed state.
    public static var none: Self { Self(.none) }

    /// Sends `action` back into the store immediately, before any task starts.
    ///
    /// Prefer calling shared logic directly in the reducer; this exists for the cases TCA uses
    /// it for, such as a child telling its parent something happened.
    public static func send(_ action: Action) -> Self { Self(.send(action)) }

    /// Runs asynchronous work in a new task that inherits the store's dependencies.
    ///
    /// - Parameters:
    ///   - priority: The priority of the task; `nil` inherits the caller's.
    ///   - operation: The work. It sends results back with `await send(.someAction)`.
    ///   - handler: Called with any error `operation` throws, other than cancellation. Without
    ///     one, an error is a programming mistake (a feature should turn failures into actions)
    ///     and is reported as an issue, which fails the test that caused it.
    public static func run(
        priority: TaskPriority? = nil,
        operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
        catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        Self(
            .run(priority: priority) { send in
                do {
                    try await operation(send)
                } catch is CancellationError {
                    // Cancellation is how effects are meant to stop; it is never an error.
                } catch {
                    guard !Task.isCancelled else { return }
                    if let handler {
                        await handler(error, send)
                    } else {
                        reportIssue(
                            """
                            An "Effect.run" returned from "\(fileID):\(line)" threw an unhandled error: \
                            \(error)

                            All errors thrown in "Effect.run" should be caught and turned into actions, \
                            or handled with the "catch" parameter.
                            """,
                            fileID: fileID, filePath: filePath, line: line, column: column
                        )
                    }
                }
            })
    }

    /// Cancels every in-flight effect that was marked with ``cancellable(id:cancelInFlight:)``
    /// and the same `id`. It happens synchronously, before the next action is handled.
    public static func cancel(id: some Hashable & Sendable) -> Self {
        Self(.cancel(id: AnyHashableSendable(id)))
    }

    /// Runs the effects at the same time; the result finishes when all of them have.
    public static func merge(_ effects: Self...) -> Self { merge(effects) }

    /// Runs the effects at the same time; the result finishes when all of them have.
    public static func merge(_ effects: some Sequence<Self>) -> Self {
        let effects = effects.filter { if case .none = $0.operation { false } else { true } }
        switch effects.count {
        case 0: return .none
        case 1: return effects[0]
        default: return Self(.merge(effects))
        }
    }

    /// Runs the effects one after the other, each starting when the previous has finished.
    public static func concatenate(_ effects: Self...) -> Self { concatenate(effects) }

    /// Runs the effects one after the other, each starting when the previous has finished.
    public static func concatenate(_ effects: some Sequence<Self>) -> Self {
        let effects = effects.filter { if case .none = $0.operation { false } else { true } }
        switch effects.count {
        case 0: return .none
        case 1: return effects[0]
        default: return Self(.concatenate(effects))
        }
    }

    /// Marks this effect so that ``cancel(id:)`` with the same `id` can stop it.
    ///
    /// - Parameter cancelInFlight: When `true`, effects already running under `id` are cancelled
    ///   before this one starts, so at most one runs at a time (a timer, a search request).
    public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
        if case .none = operation { return self }
        return Self(.cancellable(self, id: AnyHashableSendable(id), cancelInFlight: cancelInFlight))
    }

    /// This effect and `other` at the same time.
    public func merge(with other: Self) -> Self { .merge(self, other) }

    /// This effect, then `other`.
    public func concatenate(with other: Self) -> Self { .concatenate(self, other) }

    /// Turns the actions this effect sends into another type, so a parent can run a child's
    /// effects (see ``Scope``).
    public func map<NewAction: Sendable>(
        _ transform: @escaping @Sendable (Action) -> NewAction
    ) -> Effect<NewAction> {
        switch operation {
        case .none:
            return .none
        case .send(let action):
            return .send(transform(action))
        case .run(let priority, let operation):
            return Effect<NewAction>(
                .run(priority: priority) { send in
                    await operation(Send { action in send(transform(action)) })
                })
        case .cancel(let id):
            return Effect<NewAction>(.cancel(id: id))
        case .cancellable(let effect, let id, let cancelInFlight):
            return Effect<NewAction>(
                .cancellable(effect.map(transform), id: id, cancelInFlight: cancelInFlight))
        case .merge(let effects):
            return Effect<NewAction>(.merge(effects.map { $0.map(transform) }))
        case .concatenate(let effects):
            return Effect<NewAction>(.concatenate(effects.map { $0.map(transform) }))
        }
    }
}
