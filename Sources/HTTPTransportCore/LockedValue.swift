import Synchronization

/// A value guarded by a lock, for the few reference types of the wire clients that must be
/// `Sendable` yet mutable (query builders, session refresh handlers, test recorders): a
/// `Mutex` that can be shared, since a `Mutex` itself cannot be copied.
///
/// `package`, not public: it is a tool of this package's wire clients, not part of their API.
/// Not named `LockIsolated` so that it never competes with ConcurrencyExtras' type of that
/// name in a file that imports both (the adapters import Dependencies, which re-exports it).
package final class LockedValue<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    /// Guards `value`.
    package init(_ value: Value) { mutex = Mutex(value) }

    /// A copy of the value, read under the lock.
    package var value: Value { mutex.withLock { $0 } }

    /// Runs `body` with the value under the lock, for a read-modify-write that must not
    /// interleave with another.
    @discardableResult
    package func withValue<R: Sendable, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        try mutex.withLock { (value: inout Value) throws(E) -> R in try body(&value) }
    }
}
