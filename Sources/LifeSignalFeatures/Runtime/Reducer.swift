/// The logic of a feature: how an action changes state, and what work follows.
///
/// The shape is The Composable Architecture's (`reduce(into:action:)` returning an ``Effect``),
/// so a TCA feature ports here by renaming, and a feature written here ports to TCA the same
/// way. Reducers are values: they keep no state of their own, only dependencies, which they
/// read with `@Dependency(\.someClient) var someClient` stored properties. The store sets the
/// dependency context around every call, so those reads see the store's overrides.
public protocol Reducer<State, Action>: Sendable {
    /// Everything the feature's screen shows; a value type, compared in tests.
    associatedtype State: Sendable
    /// Everything that can happen: taps, text edits, lifecycle events, client responses.
    associatedtype Action: Sendable

    /// Changes `state` for `action` and returns the work to do next.
    ///
    /// It must be fast and deterministic: read time, identifiers and randomness through
    /// dependencies, and put anything that waits into the returned effect.
    func reduce(into state: inout State, action: Action) -> Effect<Action>
}

/// A reducer made from a closure, for glue logic that does not deserve a named type.
///
/// ```swift
/// Reduce<AppState, AppAction> { state, action in
///     guard case .auth(.verified(let session)) = action else { return .none }
///     state.session = session
///     return .none
/// }
/// ```
public struct Reduce<State: Sendable, Action: Sendable>: Reducer {
    let reduce: @Sendable (inout State, Action) -> Effect<Action>

    public init(_ reduce: @escaping @Sendable (_ state: inout State, _ action: Action) -> Effect<Action>) {
        self.reduce = reduce
    }

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        reduce(&state, action)
    }
}
