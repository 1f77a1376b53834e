extension Schema {
    /// GoTrue's `user_metadata` (the `data` of sign-up and `PUT /user`), as JSON text.
    static let userMetadata = Migration(
        version: 103, name: "auth user metadata",
        statements: ["ALTER TABLE auth_users ADD COLUMN user_metadata text NOT NULL DEFAULT '{}'"])

    /// How each session was signed in, so a refreshed token keeps the `amr` claim (GoTrue's record of how the person signed in) of
    /// the sign-in that started it. Sessions from before this migration were all phone codes.
    static let sessionSignInMethod = Migration(
        version: 106, name: "auth session sign-in method",
        statements: ["ALTER TABLE auth_sessions ADD COLUMN sign_in_method text NOT NULL DEFAULT 'otp'"])
}
