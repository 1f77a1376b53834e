/// Runs a child feature's reducer inside a parent's: on the part of the parent's state the
/// child owns, for the parent actions that wrap the child's.
///
/// This is how screens compose. The parent stores the child's state in a property and wraps
/// the child's actions in one case of its own action enum; `Scope` does the unwrapping,
/// the in-place mutation and the re-wrapping of the child's effects, so the child never knows
/// it has a parent.
///
/// ```swift
/// Scope(state: \AppState.checkIn, action: { action in
///     if case .checkIn(let child) = action { child } else { nil }
/// }, embed: AppAction.checkIn) {
///     CheckInFeature()
/// }
/// ```
///
/// TCA spells the action half as a case key path (`action: \.checkIn`); a closure that extracts
/// the case plus the case constructor says the same without macros.
public struct Scope<ParentState: Sendable, ParentAction: Sendable, Child: Reducer>: Reducer {
    public typealias State = ParentState
    public typealias Action = ParentAction

    let state: WritableKeyPath<ParentState, Child.State> & Sendable
    let extract: @Sendable (ParentAction) -> Child.Action?
    let embed: @Sendable (Child.Action) -> ParentAction
    let child: Child

    /// - Parameters:
    ///   - state: Where the child's state lives in the parent's.
    ///   - extract: The child's action, when the parent action wraps one; `nil` otherwise.
    ///   - embed: Wraps a child action (one its effects send) into the parent's action.
    ///   - child: The child reducer. A closure, as in TCA, so it is built in the caller's
    ///     dependency context.
    public init(
        state: WritableKeyPath<ParentState, Child.State> & Sendable,
        action extract: @escaping @Sendable (ParentAction) -> Child.Action?,
        embed: @escaping @Sendable (Child.Action) -> ParentAction,
        child: () -> Child
    ) {
        self.state = state
        self.extract = extract
        self.embed = embed
        self.child = child()
    }

    public func reduce(into parent: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
        guard let childAction = extract(action) else { return .none }
        return child.reduce(into: &parent[keyPath: state], action: childAction).map(embed)
    }
}

/// Runs several reducers on the same state and action, in order, merging their effects.
///
/// Order matters the way it does in TCA's `body`: put `Scope`s first so children see an action
/// before the parent reacts to what they did with it.
public struct CombineReducers<State: Sendable, Action: Sendable, Reducers: Reducer>: Reducer
where Reducers.State == State, Reducers.Action == Action {
    let reducers: Reducers

    public init(@ReducerBuilder<State, Action> _ build: () -> Reducers) {
        self.reducers = build()
    }

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        reducers.reduce(into: &state, action: action)
    }
}

/// Builds a ``CombineReducers`` from a list of reducers written one per line.
@resultBuilder
public enum ReducerBuilder<State: Sendable, Action: Sendable> {
    public static func buildPartialBlock<R: Reducer>(first: R) -> R
    where R.State == State, R.Action == Action {
        first
    }

    public static func buildPartialBlock<R0: Reducer, R1: Reducer>(
        accumulated: R0, next: R1
    ) -> Sequenced<R0, R1> where R0.State == State, R0.Action == Action, R1.State == State, R1.Action == Action {
        Sequenced(first: accumulated, second: next)
    }

    /// Two reducers run one after the other on the same state.
    public struct Sequenced<R0: Reducer, R1: Reducer>: Reducer
    where R0.State == R1.State, R0.Action == R1.Action {
        let first: R0
        let second: R1

        public func reduce(into state: inout R0.State, action: R0.Action) -> Effect<R0.Action> {
            let firstEffect = first.reduce(into: &state, action: action)
            let secondEffect = second.reduce(into: &state, action: action)
            return .merge(firstEffect, secondEffect)
        }
    }
}
