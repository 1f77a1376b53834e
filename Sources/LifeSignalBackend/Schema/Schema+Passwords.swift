extension Schema {
    /// GoTrue's `user_metadata` (the `data` of sign-up and `PUT /user`), as JSON text.
    static let userMetadata = Migration(
        version: 103, name: "auth user metadata",
        statements: ["ALTER TABLE auth_users ADD COLUMN user_metadata text NOT NULL DEFAULT '{}'"])
}
