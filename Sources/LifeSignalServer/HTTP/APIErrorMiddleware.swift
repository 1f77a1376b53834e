import Hummingbird

/// A route group's errors in its API's words: whatever a handler of the group throws — a
/// rule's `DomainError`, the database out of reach, a body too large, a refused token —
/// leaves the group as that API's error type, which renders itself (`HTTPResponseError`).
/// Handlers therefore only `throw`; each API's whole mapping is one function beside its
/// error type (``FunctionError``, ``StorageError``, ``RESTError``, ``GoTrueError``).
///
/// Errors must not leave a group untranslated: Hummingbird answers an error that does not
/// render itself with a bare 500, in no API's format.
struct APIErrorMiddleware<Context: AuthenticatedRequestContext>: RouterMiddleware {
    let translate: @Sendable (any Error, Request, Context) -> any HTTPResponseError

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            throw translate(error, request, context)
        }
    }
}
