import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import SupabaseREST

/// Clients filled over Supabase's wire protocol: functions through Functions, reads through
/// PostgREST, sign-in through GoTrue. They work against `lifesignal serve` and against a
/// real Supabase project running LifeSignal's functions and schema.
public struct SupabaseAdapters: Sendable {
    public let client: SupabaseClient

    public init(client: SupabaseClient) { self.client = client }

    /// Runs a wire call and maps its failure into the domain.
    static func mapped<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch { throw SupabaseErrorMapping.map(error) }
    }

    /// Calls a function with a JSON body and decodes its reply, errors mapped to the domain.
    func call<Response: Decodable>(_ name: String, _ body: some Encodable & Sendable) async throws -> Response {
        let functions = client.functions
        return try await Self.mapped { try await functions.invoke(name, options: FunctionInvokeOptions(body: body)) }
    }

    public var authClient: LifeSignalClients.AuthClient {
        let client = self.client
        return LifeSignalClients.AuthClient(
            sendCode: { phone in try await Self.mapped { try await client.auth.signInWithOTP(phone: phone.e164) } },
            verifyCode: { phone, code in
                try await Self.mapped {
                    let response = try await client.auth.verifyOTP(phone: phone.e164, token: code.value, type: .sms)
                    guard let session = response.session else { throw DomainError.unauthenticated }
                    return try Self.domainSession(session)
                }
            },
            currentSession: {
                guard let session = try? await client.auth.session else { return nil }
                return try? Self.domainSession(session)
            },
            signOut: { try await Self.mapped { try await client.auth.signOut() } },
            requestPhoneChange: { phone in
                _ = try await Self.mapped { try await client.auth.update(user: UserAttributes(phone: phone.e164)) }
            },
            confirmPhoneChange: { phone, code in
                try await Self.mapped {
                    let response = try await client.auth.verifyOTP(phone: phone.e164, token: code.value, type: .phoneChange)
                    guard let session = response.session else { throw DomainError.unauthenticated }
                    return try Self.domainSession(session)
                }
            },
            deleteAccount: {
                let _: SuccessResponse = try await Self.mapped { try await client.functions.invoke(CloudFunctions.deleteUserAccount.name) }
                // The account is gone, so the server has nothing to revoke: forget the session here.
                try? await client.auth.signOut(scope: .local)
            },
            sessionChanges: {
                // Subscribed here, not inside the task, so a change made right after this
                // call returns (a sign-out, say) is already on the stream.
                let changes = client.auth.authStateChanges
                return AsyncStream { continuation in
                    let task = Task {
                        for await change in changes {
                            continuation.yield(change.session.flatMap { try? Self.domainSession($0) })
                        }
                        continuation.finish()
                    }
                    continuation.onTermination = { _ in task.cancel() }
                }
            }
        )
    }

    /// Check-ins through the functions (``FunctionCalling/functionCheckInClient(history:)``),
    /// the history read from `check_ins` through PostgREST (its row policy keeps it to mine).
    public var checkInClient: CheckInClient {
        let client = self.client
        return functionCheckInClient(history: { limit in
            try CheckInRules.validateHistoryLimit(limit)
            return try await Self.mapped {
                let me = try await client.auth.session.user.id
                let rows: [CheckInRow] = try await client.from("check_ins").select("id,checked_in_at,source")
                    .eq("user_id", value: me.uuidString.lowercased())
                    .order("checked_in_at", ascending: false).order("id").limit(limit)
                    .execute().value
                return rows.map { CheckInEntry(id: $0.id, checkedInAt: $0.checkedInAt, source: $0.source) }
            }
        })
    }

    static func domainSession(_ session: Session) throws -> AuthSession {
        let phone = try PhoneNumber("+" + (session.user.phone ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "+")))
        let isNew = session.user.lastSignInAt.map { abs($0.timeIntervalSince(session.user.createdAt)) < 1 } ?? true
        return AuthSession(
            userID: UserID(session.user.id), phone: phone, accessToken: session.accessToken,
            refreshToken: session.refreshToken, expiresAt: Date(timeIntervalSince1970: session.expiresAt), isNewUser: isNew)
    }
}

/// The `check-in` function's reply (seed `001_…`'s process-check-in).
/// A `check_ins` row as PostgREST sends it.
struct CheckInRow: Decodable {
    var id: UUID
    var checkedInAt: Date
    var source: CheckInSource

    enum CodingKeys: String, CodingKey {
        case id, source
        case checkedInAt = "checked_in_at"
    }
}
