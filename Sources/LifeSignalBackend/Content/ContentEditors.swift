import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Who edits content, for the in-process paths (``ContentService``, the content functions):
/// a person whose stored `app_metadata.role` is `editor`, or the service role. Over
/// `/rest/v1` the same people run as the `content_editor` database role (migration 210).
///
/// The stored metadata is read on each call rather than taken from a token: in-process
/// callers carry no token, and a demotion then counts at once.
enum ContentEditors {
    static func isEditor(_ caller: Caller, in database: any Database) async throws -> Bool {
        switch caller {
        case .service: return true
        case .anonymous: return false
        case .user(let id):
            guard let row = try await database.query("SELECT app_metadata FROM auth_users WHERE id = \(SQLValue(id.rawValue))").first,
                let text = row.optionalString("app_metadata"),
                let metadata = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
            else { return false }
            return metadata["role"] as? String == "editor"
        }
    }

    /// The record as `editor` or not may see it: without its creator for anyone but an editor.
    static func shown<R: ContentRecord>(_ record: R, editor: Bool) -> R {
        guard !editor else { return record }
        var shown = record
        shown.createdBy = nil
        return shown
    }
}
