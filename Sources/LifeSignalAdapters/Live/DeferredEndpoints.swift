import Foundation
import LifeSignalDomain

/// Builds a client's endpoints that first wait for the real client (opened later, maybe
/// failing) and then call its endpoint of the same name.
///
/// A `liveValue` must be built synchronously, long before the backend opens; these endpoints
/// make that possible one line each (`auth.forward(\.sendCode)`), one overload per arity,
/// instead of a hand-written closure per endpoint that could forward to the wrong one.
struct DeferredEndpoints<Client: Sendable>: Sendable {
    /// The real client; throws the open's failure.
    let client: @Sendable () async throws(DomainError) -> Client

    func forward<R>(_ endpoint: KeyPath<Client, @Sendable () async throws -> R> & Sendable) -> @Sendable () async throws -> R {
        { try await client()[keyPath: endpoint]() }
    }

    func forward<A, R>(_ endpoint: KeyPath<Client, @Sendable (A) async throws -> R> & Sendable) -> @Sendable (A) async throws -> R {
        { a in try await client()[keyPath: endpoint](a) }
    }

    func forward<A, B, R>(_ endpoint: KeyPath<Client, @Sendable (A, B) async throws -> R> & Sendable) -> @Sendable (A, B) async throws -> R {
        { a, b in try await client()[keyPath: endpoint](a, b) }
    }

    func forward<A, B, C, R>(
        _ endpoint: KeyPath<Client, @Sendable (A, B, C) async throws -> R> & Sendable
    ) -> @Sendable (A, B, C) async throws -> R {
        { a, b, c in try await client()[keyPath: endpoint](a, b, c) }
    }

    func forward<A, B, C, D, R>(
        _ endpoint: KeyPath<Client, @Sendable (A, B, C, D) async throws -> R> & Sendable
    ) -> @Sendable (A, B, C, D) async throws -> R {
        { a, b, c, d in try await client()[keyPath: endpoint](a, b, c, d) }
    }

    /// An endpoint that cannot throw: when the client cannot be opened it answers `fallback`
    /// (no session, a stream that ends), as a backend with nothing to say would.
    func forward<R>(
        _ endpoint: KeyPath<Client, @Sendable () async -> R> & Sendable, otherwise fallback: @escaping @Sendable () -> R
    ) -> @Sendable () async -> R {
        {
            guard let resolved = try? await client() else { return fallback() }
            return await resolved[keyPath: endpoint]()
        }
    }

    /// A synchronous stream endpoint: the stream is handed out at once and relays the real
    /// one's elements once the client opens; it finishes if the client cannot be opened, and
    /// ending it ends the real one.
    func relay<Element: Sendable>(_ endpoint: KeyPath<Client, @Sendable () -> AsyncStream<Element>> & Sendable) -> @Sendable () -> AsyncStream<Element> {
        let client = self.client
        return {
            AsyncStream { continuation in
                let task = Task {
                    if let resolved = try? await client() {
                        for await element in resolved[keyPath: endpoint]() { continuation.yield(element) }
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
    }
}
