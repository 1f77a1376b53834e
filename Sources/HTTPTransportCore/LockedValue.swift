import Foundation

/// A value guarded by a lock, for the few reference types of the wire clients that must be
/// `Sendable` yet mutable (query builders, session refresh handlers, test recorders).
///
/// `package`, not public: it is a tool of this package's wire clients, not part of their API.
/// Not named `LockIsolated` so that it never competes with ConcurrencyExtras' type of that
/// name in a file that imports both (the adapters import Dependencies, which re-exports it).
package final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var _value: Value

    /// Guards `value`.
    package init(_ value: Value) { _value = value }

    /// A copy of the value, read under the lock.
    package var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return _value
    }

    /// Runs `body` with the value under the lock, for a read-modify-write that must not
    /// interleave with another.
    @discardableResult
    package func withValue<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&_value)
    }
}
