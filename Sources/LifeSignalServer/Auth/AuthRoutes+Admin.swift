import Foundation
import Hummingbird
import LifeSignalBackend
import LifeSignalDomain

/// GoTrue's admin API, as much of it as the access model needs: `PUT /admin/users/<id>` with
/// `{"app_metadata": {…}}` (supabase-js `auth.admin.updateUserById`), which is how an operator
/// makes someone a content editor (`{"role": "editor"}`; docs/security.md, "Content").
extension AuthRoutes {
    func adminUpdateUser(_ request: Request, context: Context, id text: String) async throws -> Response {
        try requireServiceRole(context)
        guard let id = UserID(string: text) else {
            throw GoTrueError(status: .notFound, code: "user_not_found", message: "User not found")
        }
        let body: [String: JSONValue] = try await decode(request)
        if let other = body.keys.sorted().first(where: { $0 != "app_metadata" }) {
            throw GoTrueError(
                status: .badRequest, code: "validation_failed",
                message: "Only app_metadata can be changed here, not \(other.prefix(40))")
        }
        guard case .object = body["app_metadata"] else {
            throw GoTrueError(status: .badRequest, code: "validation_failed", message: "app_metadata must be a JSON object")
        }
        guard let user = try await backend.auth.updateAppMetadata(of: id, merging: body["app_metadata"]?.jsonText ?? "{}") else {
            throw GoTrueError(status: .notFound, code: "user_not_found", message: "User not found")
        }
        return JSONResponse.make(.ok, GoTrueUser(user))
    }

    /// GoTrue's admin routes take a token whose role is `service_role`; anyone else is
    /// 403 `not_admin`, as there.
    private func requireServiceRole(_ context: Context) throws {
        guard context.authentication.claims?.role == DatabaseRole.serviceRole.rawValue
        else { throw GoTrueError(status: .forbidden, code: "not_admin", message: "User not allowed") }
    }
}
