import Foundation
import Hummingbird
import LifeSignalBackend
import LifeSignalDomain
import Logging

/// `/functions/v1/<name>`: the backend's cloud functions. Their Edge-Function CORS (preflight
/// answered without a token, headers on every reply) is ``CORSMiddleware``'s `.edgeFunction`;
/// their errors are ``FunctionError``s.
struct FunctionRoutes<Context: AuthenticatedRequestContext> {
    let backend: LifeSignalBackend
    let bodyLimit: Int
    let logger = Logger(label: "lifesignal.functions")

    func register(on router: some RouterMethods<Context>) {
        let logger = self.logger
        router.group("functions/v1")
            .add(
                middleware: APIErrorMiddleware { error, _, context in
                    FunctionError.translating(error, function: context.parameters.get("name") ?? "", logger: logger)
                }
            )
            .post(":name") { request, context in
                try await self.invoke(request, context: context, name: context.parameters.get("name") ?? "")
            }
    }

    private func invoke(_ request: Request, context: Context, name: String) async throws -> Response {
        guard BackendFunctions.names.contains(name) else {
            throw FunctionError(status: .notFound, code: "not_found", message: "Function \"\(name)\" was not found")
        }
        let (caller, claims) = try context.authentication.required()
        let body = try await request.collectBody(limit: bodyLimit)
        // A token of a session that has ended (signed out, password changed) is refused
        // before it expires, as GoTrue refuses it (docs/security.md, "Sessions"). Looked up
        // once the body is in, so the client is never left waiting to send it.
        guard try await backend.auth.sessions.isActive(claims) else {
            throw FunctionError(status: .unauthorized, code: "session_not_found", message: "Session from session_id claim in JWT does not exist")
        }
        let reply = try await backend.functions.call(name, caller: caller, body: body)
        return JSONResponse.make(.ok, data: reply)
    }
}
