import Foundation
import LifeSignalFunctions

extension DocumentService {
    /// The table documents live in.
    public static let table = DocumentContract.table

    /// A person reads their own documents (`/rest/v1/documents`, and Realtime reads each
    /// change as its subscriber through this policy); nobody writes through PostgREST: writes
    /// go through the document functions, which check paths, sizes and field rules first.
    static let policy = AccessPolicy(
        table: table, grants: [.authenticated: [.select]],
        rules: [.init("documents_select_own", .select, to: [.authenticated], using: "owner_id = auth.uid()")])

    /// Firestore-style documents: one row per document, keyed by its path, with its parent
    /// collection (what a query reads), its owner (the `{uid}` of `users/{uid}/…`) and its
    /// fields as typed JSON (``DocumentValue``'s encoding). Changes are captured for Realtime.
    static let migration: Migration = {
        let capture = ChangeCapture.capture(table: table, key: ["path"])
        return Migration(
            version: 120, name: "documents",
            statements: [
                """
                CREATE TABLE documents (
                    path text PRIMARY KEY,
                    parent text NOT NULL,
                    owner_id uuid NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
                    data jsonb NOT NULL,
                    created_at timestamptz NOT NULL,
                    updated_at timestamptz NOT NULL)
                """,
                "CREATE INDEX documents_owner_parent ON documents (owner_id, parent, path)",
            ],
            postgresOnly: policy.postgresStatements + capture.postgres,
            sqliteOnly: capture.sqlite)
    }()
}
