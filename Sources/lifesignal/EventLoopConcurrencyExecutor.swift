import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Swift Concurrency's global executor on NIO's event loops, the threads Hummingbird and
/// postgres-nio already do their I/O on, so an `await` on a socket does not hop between two
/// sets of threads.
///
/// Why not `NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()`,
/// which does the same: it runs each job *isolated to the event loop* (the loop as its serial
/// executor). A nonisolated async function then runs on an executor that is not the generic
/// one, and the runtime's `swift_task_switch` must enqueue the task again each time code
/// returns to the generic executor, which is after almost every call that could suspend. A
/// `/rest/v1` read did that about 110 times (perf probes on `swift_task_switch` and
/// `swift_task_enqueueGlobal`, docs/performance.md): each a job queued on the same loop and
/// run on its next tick. Swift's own global executor runs jobs on the generic executor, and
/// so does this one: such switches then continue at once, on the same thread.
///
/// Installed through the runtime's `swift_task_enqueueGlobal_hook`, as NIO's is: the hook
/// receives every job bound for the global executor. Tasks bound to a serial executor of
/// their own (an actor's, or an event loop's through NIO's `SerialExecutor`) never reach it.
enum EventLoopConcurrencyExecutor {
    /// The runtime's hook, `(Job *job, original enqueue)` in Swift's calling convention, which
    /// for two pointers and no result passes them as C does (x86-64 and arm64). Declared as a
    /// C function: the compiler's region analysis crashes on a `@convention(thin)` closure
    /// taking an `UnownedJob` in Swift 6 mode (6.3.1).
    private typealias EnqueueGlobalHook = @convention(c) (UnsafeRawPointer?, UnsafeRawPointer?) -> Void

    /// Held in a static: built inside `install()`, the closure crashes the compiler's region
    /// analysis (6.3.1).
    private static let hook: EnqueueGlobalHook = { job, _ in
        guard let job else { return }
        enqueue(unsafeBitCast(job, to: UnownedJob.self))
    }

    /// The generic executor, as Swift's own global executor passes it to `swift_job_run`: a
    /// reference with no identity (two zero words; the stdlib's `_getGenericSerialExecutor()`
    /// is not public).
    private static let generic = unsafeBitCast((UInt(0), UInt(0)), to: UnownedSerialExecutor.self)

    /// Installs the hook. Call once, from the main thread, before any task is created.
    ///
    /// - Returns: `false` when the runtime has no such hook or another hook is installed
    ///   already; Swift's own global executor then stays.
    @discardableResult
    static func install() -> Bool {
        guard let slot = hookSlot else { return false }
        // A plain check and store: this runs on the main thread before any task exists, and
        // a compare-and-swap would not stop code that stores without one either.
        guard slot.pointee == nil else { return false }
        slot.pointee = unsafeBitCast(hook, to: UnsafeRawPointer.self)
        return true
    }

    /// Whether this hook is the one installed (what `serve`'s banner reports).
    static var isInstalled: Bool {
        hookSlot?.pointee == unsafeBitCast(hook, to: UnsafeRawPointer.self)
    }

    /// The runtime's hook variable, or `nil` where this cannot be used: a runtime without it,
    /// layouts other than the ones the casts above assume, or an architecture where Swift's
    /// calling convention for the hook has not been checked against C's.
    private static var hookSlot: UnsafeMutablePointer<UnsafeRawPointer?>? {
        #if arch(x86_64) || arch(arm64)
            guard MemoryLayout<UnownedSerialExecutor>.size == 2 * MemoryLayout<UInt>.size,
                MemoryLayout<UnownedJob>.size == MemoryLayout<UnsafeRawPointer>.size,
                let symbol = dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook")
            else { return nil }
            return symbol.assumingMemoryBound(to: UnsafeRawPointer?.self)
        #else
            return nil
        #endif
    }

    /// `any()` is the current loop when called on one of the group's threads: a task resumed
    /// by I/O stays on the loop that did the I/O.
    private static func enqueue(_ job: UnownedJob) {
        MultiThreadedEventLoopGroup.singleton.any().execute { job.runSynchronously(on: generic) }
    }
}
