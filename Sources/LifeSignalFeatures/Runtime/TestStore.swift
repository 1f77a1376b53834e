import ConcurrencyExtras
import CustomDump
import Dependencies
import IssueReporting

/// How much of a feature's behaviour a ``TestStore`` insists on being asserted.
public enum Exhaustivity: Equatable, Sendable {
    /// Every state change, every action sent back by an effect, and the end of every effect
    /// must be asserted; anything left over fails the test. The default.
    case on
    /// Only what the test asserts is checked: `send`/`receive` closures are applied to the
    /// actual state, unasserted actions are skipped, and effects still running at the end are
    /// cancelled silently. For integration-style tests that care about one outcome.
    case off
}

/// Runs a feature in a test and fails the test on any behaviour the test did not assert,
/// the way The Composable Architecture's `TestStore` does.
///
/// ```swift
/// let store = TestStore(initialState: AuthFeature.State()) {
///     AuthFeature()
/// } withDependencies: {
///     $0.authClient.sendCode = { _ in }
/// }
/// await store.send(.phoneChanged("+15550001111")) { $0.phoneText = "+15550001111" }
/// await store.send(.sendCodeTapped) { $0.isSending = true }
/// await store.receive(.codeSent(phone)) { … }
/// await store.finish()
/// ```
///
/// Exhaustive by default, it reports an issue (a test failure under Swift Testing and XCTest,
/// through IssueReporting) when:
/// - the state after an action differs from the state the test's closure describes (with a diff);
/// - an effect sends back an action the test never `receive`s;
/// - an effect is still running at ``finish(timeout:fileID:filePath:line:column:)``, or when the
///   store is released without `finish()` having been called;
/// - an expected action does not arrive within the timeout.
///
/// Dependencies the test does not override use their `testValue`, so an unimplemented
/// endpoint of a `@DependencyClient` fails the test as soon as the feature calls it: a test
/// states every dependency the behaviour under test relies on.
@MainActor
public final class TestStore<State: Equatable & Sendable, Action: Equatable & Sendable> {
    /// The state as far as the test has asserted it.
    public internal(set) var state: State

    /// Whether every behaviour must be asserted; see ``Exhaustivity``.
    public var exhaustivity: Exhaustivity {
        get { exhaustivityBox.value }
        set { exhaustivityBox.setValue(newValue) }
    }

    /// How long ``receive(_:timeout:assert:fileID:filePath:line:column:)`` and
    /// ``finish(timeout:fileID:filePath:line:column:)`` wait, in real time, when not told.
    /// Generous, since it only bounds a wait that ends as soon as the effect is done: under a
    /// loaded CI machine an effect that takes microseconds can be scheduled a second later.
    public var timeout: Duration = .seconds(10)

    let runtime: StoreRuntime<State, Action>
    /// Actions effects sent back, with the state each left, not yet asserted. Behind a lock so
    /// that deinit, which is not on the main actor, can report them.
    let received = LockIsolated<[(action: Action, state: State)]>([])
    private let exhaustivityBox = LockIsolated(Exhaustivity.on)
    /// The state right after the last action sent from outside, before the actions its
    /// effects sent synchronously.
    private var stateAfterExternalAction: State?
    private let location: SourceLocation

    /// Creates a test store.
    ///
    /// - Parameters:
    ///   - initialState: The state to start from.
    ///   - reducer: Builds the reducer under test in the test's dependency context.
    ///   - prepareDependencies: Overrides for the dependencies this test relies on. Everything
    ///     else keeps its test value, which fails when used.
    public init<R: Reducer<State, Action>>(
        initialState: State,
        reducer: () -> R,
        withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        state = initialState
        location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        runtime = Dependencies.withDependencies {
            $0.context = .test
            prepareDependencies(&$0)
        } operation: {
            StoreRuntime(initialState: initialState, reducer: reducer())
        }
        runtime.didReduce = { [weak self] action, origin, state in
            guard let self else { return }
            switch origin {
            case .external: stateAfterExternalAction = state
            case .effect: received.withValue { $0.append((action, state)) }
            }
        }
    }

    deinit {
        let running = runtime.inFlight.value
        runtime.cancelAll()
        guard exhaustivityBox.value == .on else { return }
        let unreceived = received.value
        if !running.isEmpty {
            reportIssue(
                Self.stillRunningMessage(running.values.map(\.action)), fileID: location.fileID,
                filePath: location.filePath, line: location.line, column: location.column)
        }
        if !unreceived.isEmpty {
            reportIssue(
                Self.unreceivedMessage(unreceived.map(\.action)), fileID: location.fileID,
                filePath: location.filePath, line: location.line, column: location.column)
        }
    }

    /// Sends an action as the person (or the view) would, and asserts the state it leaves.
    ///
    /// - Parameters:
    ///   - action: The action.
    ///   - updateStateToExpectedResult: Mutates the state from before the action into the
    ///     state the test expects after it. Omit it when the action must not change state.
    /// - Returns: A handle on the action's effects, to wait for or cancel them.
    @discardableResult
    public func send(
        _ action: Action,
        assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> TestStoreTask {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let unhandled = received.withValue { received in
            defer { received.removeAll() }
            return received.map(\.action)
        }
        if exhaustivity == .on, !unhandled.isEmpty {
            location.report(Self.unreceivedMessage(unhandled, before: action))
        }
        let before = runtime.state
        stateAfterExternalAction = nil
        let bag = runtime.send(action, origin: .external)
        let after = stateAfterExternalAction ?? runtime.state
        expect(before: before, after: after, updateStateToExpectedResult, action: action, location)
        state = after
        // Give the effects just started a chance to reach their first suspension (a client
        // call, a clock sleep) before the test moves on, e.g. to advance a test clock.
        await Task.megaYield()
        return TestStoreTask(bag: bag, timeout: timeout)
    }

    /// Waits for the effects still running, then fails for any that are not done and for any
    /// action they sent that the test did not receive. Call it at the end of every test.
    public func finish(
        timeout: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let timeout = timeout ?? self.timeout
        await waitForEffects(timeout: timeout)
        let running = runtime.inFlight.value
        runtime.cancelAll()
        // Let the cancelled effects wind down, so a later deinit does not report them again.
        await waitForEffects(timeout: timeout)
        let unreceived = received.withValue { received in
            defer { received.removeAll() }
            return received
        }
        state = unreceived.last?.state ?? state
        guard exhaustivity == .on else { return }
        if !running.isEmpty {
            location.report(Self.stillRunningMessage(running.values.map(\.action)))
        }
        if !unreceived.isEmpty {
            location.report(Self.unreceivedMessage(unreceived.map(\.action)))
        }
    }

    /// Drops the actions effects have sent that the test has not received, for tests that only
    /// care about a later outcome.
    public func skipReceivedActions() {
        let skipped = received.withValue { received in
            defer { received.removeAll() }
            return received
        }
        state = skipped.last?.state ?? state
    }

    /// Cancels every effect still running, for tests that end while a long-lived effect (a
    /// timer, a subscription) is still going on purpose.
    public func skipInFlightEffects() {
        runtime.cancelAll()
    }

    /// Compares the state an action left with the state the test expects.
    func expect(
        before: State,
        after: State,
        _ update: ((inout State) throws -> Void)?,
        action: Action,
        _ location: SourceLocation
    ) {
        // Non-exhaustive tests state only what they care about: apply their closure to the
        // actual result, so fields they did not mention always match.
        var expected = exhaustivity == .on ? before : after
        do {
            try update?(&expected)
        } catch {
            location.report("The assertion closure for \(Self.describe(action)) threw: \(error)")
            return
        }
        if expected != after {
            location.report(Self.stateMismatchMessage(expected: expected, actual: after, asserted: update != nil))
        } else if exhaustivity == .on, update != nil, before == after {
            location.report(
                """
                Expected state to change, but no change occurred.

                The trailing closure made no observable modification to state. If no change to \
                state is expected, omit the trailing closure.
                """)
        }
    }

    private func waitForEffects(timeout: Duration) async {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while !runtime.inFlight.value.isEmpty, ContinuousClock.now < deadline {
            await Self.pause()
        }
    }

    /// Lets effects run for a moment, in real time; used while waiting on them.
    static func pause() async {
        await Task.yield()
        try? await Task.sleep(for: .milliseconds(1))
    }
}
