import ConcurrencyExtras
import Dependencies
import Foundation

/// The machinery shared by ``Store`` and ``TestStore``: it holds state, runs the reducer, and
/// interprets effects into tasks, with cancellation by id.
///
/// Both stores use this one implementation on purpose, so that what a test exercises is
/// exactly what the app runs. The test store only adds bookkeeping through ``didReduce``.
///
/// Everything here is main-actor isolated: state is only ever touched by the reducer, on the
/// main actor, one action at a time. Effect operations themselves run on the global executor
/// and come back through ``Send``.
@MainActor
final class StoreRuntime<State: Sendable, Action: Sendable> {
    /// Why an action reached the reducer: sent from outside, or sent back by an effect.
    enum Origin { case external, effect }

    private(set) var state: State
    private let reducer: any Reducer<State, Action>
    /// The dependencies of the context the store was created in. The reducer and every effect
    /// run inside it, so `withDependencies { … } operation: { Store(…) }` reaches effects that
    /// start long after that call has returned.
    private let dependencies: DependencyValues.Continuation

    /// Called after each action has been reduced, with the state it left. The test store uses
    /// it to record the actions effects send back, and the state after each.
    var didReduce: (@MainActor (Action, Origin, State) -> Void)?

    /// Every effect task started by the store that has not finished, with the action whose
    /// reduction started it (the test store names it when an effect outlives a test). Behind a
    /// lock rather than the main actor so that a store's deinit can cancel them.
    nonisolated let inFlight = LockIsolated<[UUID: (action: Action, task: Task<Void, Never>)]>([:])
    /// Tasks that can be cancelled by id: the effect tasks above, and the child tasks that
    /// `cancellable` effects nested in a `concatenate` run in.
    private var cancellableTasks: [UUID: Task<Void, Never>] = [:]
    /// The tasks registered under each cancellation id.
    private var cancellables: [AnyHashableSendable: Set<UUID>] = [:]

    /// Actions waiting to be reduced, with the bag their effects' tasks belong to. Synchronous
    /// `Effect.send` actions queue here so each action is reduced to completion before the
    /// next begins.
    private var queue: [(action: Action, origin: Origin, bag: TaskBag)] = []
    private var isDraining = false

    init(initialState: State, reducer: any Reducer<State, Action>) {
        self.state = initialState
        self.reducer = reducer
        self.dependencies = withEscapedDependencies { $0 }
    }

    /// Reduces `action` (and any action its effects send synchronously) and starts its effects.
    ///
    /// - Returns: The bag that collects every task started because of this action, including
    ///   tasks started by actions its effects send later, so `StoreTask.finish()` can wait for
    ///   the whole cascade.
    @discardableResult
    func send(_ action: Action, origin: Origin, bag: TaskBag = TaskBag()) -> TaskBag {
        queue.append((action, origin, bag))
        guard !isDraining else { return bag }
        isDraining = true
        defer { isDraining = false }
        while !queue.isEmpty {
            let (action, origin, bag) = queue.removeFirst()
            let effect = dependencies.yield { reducer.reduce(into: &state, action: action) }
            didReduce?(action, origin, state)
            start(effect, for: action, bag: bag, ids: [])
        }
        return bag
    }

    /// Cancels every effect registered under `id`.
    func cancel(id: AnyHashableSendable) {
        guard let taskIDs = cancellables.removeValue(forKey: id) else { return }
        for taskID in taskIDs { cancellableTasks[taskID]?.cancel() }
    }

    /// Cancels every running effect; used when a store goes away.
    nonisolated func cancelAll() {
        for entry in inFlight.value.values { entry.task.cancel() }
    }

    /// Interprets an effect synchronously: sends and cancellations happen now, asynchronous work
    /// becomes tasks registered under the enclosing cancellation `ids`.
    private func start(_ effect: Effect<Action>, for action: Action, bag: TaskBag, ids: [AnyHashableSendable]) {
        switch effect.operation {
        case .none:
            return
        case .send(let next):
            queue.append((next, .effect, bag))
        case .cancel(let id):
            cancel(id: id)
        case .merge(let effects):
            for effect in effects { start(effect, for: action, bag: bag, ids: ids) }
        case .cancellable(let inner, let id, let cancelInFlight):
            if cancelInFlight { cancel(id: id) }
            start(inner, for: action, bag: bag, ids: ids + [id])
        case .run(let priority, let operation):
            spawn(priority: priority, for: action, bag: bag, ids: ids) { send in await operation(send) }
        case .concatenate:
            spawn(priority: nil, for: action, bag: bag, ids: ids) { [self] send in
                await self.perform(effect, send: send, bag: bag)
            }
        }
    }

    /// Starts one effect task and tracks it until it finishes.
    private func spawn(
        priority: TaskPriority?,
        for action: Action,
        bag: TaskBag,
        ids: [AnyHashableSendable],
        operation: @escaping @Sendable (Send<Action>) async -> Void
    ) {
        let taskID = UUID()
        let send = Send<Action> { [self] action in self.send(action, origin: .effect, bag: bag) }
        let dependencies = self.dependencies
        // The task inherits the main actor from this method, so it cannot begin before the
        // bookkeeping below is done; `operation` itself is nonisolated and runs off the main actor.
        let task = Task(priority: priority) { [self] in
            await dependencies.yield { await operation(send) }
            self.finished(taskID)
        }
        inFlight.withValue { $0[taskID] = (action, task) }
        register(task, taskID, under: ids)
        bag.append(task)
    }

    private func register(_ task: Task<Void, Never>, _ taskID: UUID, under ids: [AnyHashableSendable]) {
        guard !ids.isEmpty else { return }
        cancellableTasks[taskID] = task
        for id in ids { cancellables[id, default: []].insert(taskID) }
    }

    private func finished(_ taskID: UUID) {
        inFlight.withValue { $0[taskID] = nil }
        guard cancellableTasks.removeValue(forKey: taskID) != nil else { return }
        for id in Array(cancellables.keys) {
            cancellables[id]?.remove(taskID)
            if cancellables[id]?.isEmpty == true { cancellables[id] = nil }
        }
    }

    /// Interprets an effect inside an already-running task; used by `concatenate`, whose parts
    /// must run in order within one task.
    private func perform(_ effect: Effect<Action>, send: Send<Action>, bag: TaskBag) async {
        switch effect.operation {
        case .none:
            return
        case .send(let action):
            send(action)
        case .cancel(let id):
            cancel(id: id)
        case .run(_, let operation):
            await operation(send)
        case .merge(let effects):
            await withTaskGroup(of: Void.self) { group in
                for effect in effects {
                    group.addTask { await self.perform(effect, send: send, bag: bag) }
                }
            }
        case .concatenate(let effects):
            for effect in effects {
                guard !Task.isCancelled else { return }
                await perform(effect, send: send, bag: bag)
            }
        case .cancellable(let inner, let id, let cancelInFlight):
            if cancelInFlight { cancel(id: id) }
            // A child task gives the inner effect its own cancellation handle under `id`,
            // while cancelling the enclosing task still reaches it.
            let taskID = UUID()
            let child = Task { await self.perform(inner, send: send, bag: bag) }
            register(child, taskID, under: [id])
            await withTaskCancellationHandler {
                await child.value
            } onCancel: {
                child.cancel()
            }
            finished(taskID)
        }
    }
}

/// The tasks started because of one action sent from outside, and because of every action
/// those tasks sent in turn. ``StoreTask/finish()`` waits on all of them.
final class TaskBag: Sendable {
    private let tasks = LockIsolated<[Task<Void, Never>]>([])

    nonisolated init() {}

    func append(_ task: Task<Void, Never>) { tasks.withValue { $0.append(task) } }

    var isEmpty: Bool { tasks.value.isEmpty }

    /// Waits for every task, including ones appended while waiting: a task can only append
    /// before it finishes (its actions are reduced while it is suspended in `send`), so when
    /// the last known task is done the list is complete.
    func waitForAll() async {
        var index = 0
        while let task = task(at: index) {
            await task.value
            index += 1
        }
    }

    private func task(at index: Int) -> Task<Void, Never>? {
        tasks.withValue { index < $0.count ? $0[index] : nil }
    }

    func cancelAll() { for task in tasks.value { task.cancel() } }
}
