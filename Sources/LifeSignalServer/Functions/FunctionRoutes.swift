import Foundation
import Hummingbird
import LifeSignalBackend
import LifeSignalDomain
import Logging

/// `/functions/v1/<name>`: the backend's cloud functions. Their Edge-Function CORS (preflight
/// answered without a token, headers on every reply) is ``CORSMiddleware``'s `.edgeFunction`.
struct FunctionRoutes<Context: RequestContext> {
    let backend: LifeSignalBackend
    let bodyLimit: Int
    let logger = Logger(label: "lifesignal.functions")

    func register(on router: Router<Context>) {
        router.post("functions/v1/:name") { request, context in
            await self.invoke(request, name: context.parameters.get("name") ?? "")
        }
    }

    private func invoke(_ request: Request, name: String) async -> Response {
        guard BackendFunctions.names.contains(name) else {
            return JSONResponse.error(.notFound, code: "not_found", message: "Function \"\(name)\" was not found")
        }
        // As the platform's verify_jwt: a function runs only with a valid bearer JWT.
        guard let token = request.bearerToken else {
            return JSONResponse.error(.unauthorized, code: "unauthenticated", message: "Missing authorization header")
        }
        let caller: Caller
        let claims: TokenClaims
        do {
            claims = try backend.auth.verify(token)
            caller = try backend.auth.caller(claims: claims)
        } catch {
            return JSONResponse.error(.unauthorized, code: "unauthenticated", message: "Invalid JWT")
        }
        do {
            let body = try await request.collectBody(limit: bodyLimit)
            // A token of a session that has ended (signed out, password changed) is refused
            // before it expires, as GoTrue refuses it (docs/security.md, "Sessions"). Looked up
            // once the body is in, so the client is never left waiting to send it.
            guard try await backend.auth.isSessionActive(claims) else {
                return JSONResponse.error(.unauthorized, code: "session_not_found", message: "Session from session_id claim in JWT does not exist")
            }
            let reply = try await backend.functions.call(name, caller: caller, body: body)
            return JSONResponse.make(.ok, data: reply)
        } catch let error as DomainError {
            return error.response
        } catch let error as DatabaseError where error.isUnavailable {
            return DatabaseError.functionUnavailableResponse
        } catch BackendFunctions.Failure.badRequest(let why) {
            return JSONResponse.error(.badRequest, code: "invalid_argument", message: why)
        } catch is BodyTooLarge {
            return JSONResponse.error(.contentTooLarge, code: "payload_too_large", message: "Request body exceeds \(bodyLimit) bytes")
        } catch {
            // The client learns nothing of it; the operator needs to.
            logger.error("function \(name) failed: \(String(reflecting: error))")
            return JSONResponse.error(.internalServerError, code: "internal", message: "The function failed")
        }
    }
}
