import Foundation

/// How long sessions live and what a session must prove before it changes how its account
/// signs in: the operator's settings for issue 18's "sessions as GoTrue keeps them".
///
/// The rules themselves are fixed (docs/security.md, "Sessions"); these are the numbers.
public struct AuthPolicy: Sendable, Equatable {
    /// Shortest password accepted by sign-up and `PUT /user` (GoTrue's
    /// `password_min_length`; shorter is 422 `weak_password`). Default: 8, as NIST SP 800-63B
    /// asks of a password chosen by its owner.
    public var minimumPasswordLength: Int
    /// How recently the session must have been signed in for `PUT /user` to change the
    /// password, email or phone without a reauthentication code (`nonce`). GoTrue uses a fixed
    /// 24 hours for passwords; the default here is 10 minutes, so an access token taken from a
    /// session that is not brand new cannot take the account over on its own.
    public var reauthenticationWindow: TimeInterval
    /// A refresh token not used for this long no longer works (its session ends): GoTrue's
    /// `sessions.inactivity_timeout`. Default: 30 days.
    public var refreshTokenInactivity: TimeInterval
    /// How long a server may trust its own earlier lookup that a session is still active,
    /// before looking again. Sessions ended through this server are forgotten at once; this is
    /// how late another server on the same PostgreSQL may notice. Default: 5 seconds.
    public var sessionCheckStaleness: TimeInterval

    public init(
        minimumPasswordLength: Int = 8, reauthenticationWindow: TimeInterval = 10 * 60,
        refreshTokenInactivity: TimeInterval = 30 * 24 * 60 * 60, sessionCheckStaleness: TimeInterval = 5
    ) {
        self.minimumPasswordLength = max(1, minimumPasswordLength)
        self.reauthenticationWindow = max(0, reauthenticationWindow)
        self.refreshTokenInactivity = max(60, refreshTokenInactivity)
        self.sessionCheckStaleness = max(0, sessionCheckStaleness)
    }
}
