import Foundation
import LifeSignalClients
import LifeSignalDomain
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
            signOut: { try await Self.mapped { try await client.auth.signOut() } }
        )
    }

    public var checkInClient: CheckInClient {
        let client = self.client
        return CheckInClient(
            checkIn: {
                try await Self.mapped {
                    let reply: CheckInReply = try await client.functions.invoke("check-in")
                    return CheckInResult(checkedInAt: reply.lastCheckInTime, deadline: reply.nextCheckInTime)
                }
            },
            status: {
                try await Self.mapped {
                    let session = try await client.auth.session
                    let row: UserCheckInRow = try await client.from("users")
                        .select("last_check_in_at,check_in_interval_seconds")
                        .eq("id", value: session.user.id.uuidString.lowercased())
                        .single()
                        .execute()
                        .value
                    return CheckInStatus(lastCheckIn: row.lastCheckInAt, interval: try CheckInInterval(seconds: TimeInterval(row.checkInIntervalSeconds)))
                }
            }
        )
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
struct CheckInReply: Decodable {
    var success: Bool
    var lastCheckInTime: Date
    var nextCheckInTime: Date
}

/// The columns of the `users` row the status needs.
struct UserCheckInRow: Decodable {
    var lastCheckInAt: Date?
    var checkInIntervalSeconds: Int

    enum CodingKeys: String, CodingKey {
        case lastCheckInAt = "last_check_in_at"
        case checkInIntervalSeconds = "check_in_interval_seconds"
    }
}
