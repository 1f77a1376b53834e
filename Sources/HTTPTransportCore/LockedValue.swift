import Foundation

/// A value guarded by a lock, for the few reference types that must be `Sendable` yet
/// mutable (the supabase-swift-shaped query builders, the auth event broadcaster).
final class LockIsolated<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var _value: Value

  init(_ value: Value) { _value = value }

  var value: Value {
    lock.lock()
    defer { lock.unlock() }
    return _value
  }

  @discardableResult
  func withValue<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&_value)
  }
}
