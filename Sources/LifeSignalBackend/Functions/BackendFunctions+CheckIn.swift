import Foundation
import LifeSignalDomain
import LifeSignalFunctions

extension BackendFunctions {
    /// `check-in` and the escalation settings around it (`BackendFunctions+Escalation.swift`).
    static let checkInFunctions: [Registration] = escalationFunctions + checkInOnly

    static let checkInOnly: [Registration] = [
        handle(CloudFunctions.checkIn) { backend, caller, request in
            // The check-in knows its interval: no second read of the status.
            let source = request.source ?? .manual
            let result: CheckInResult
            if let key = request.idempotencyKey {
                result = try await backend.checkIns.checkIn(caller: caller, source: source, pin: request.pin, idempotencyKey: key)
            } else {
                result = try await backend.checkIns.checkIn(caller: caller, source: source, pin: request.pin)
            }
            return CheckInResponse(result)
        },
        handle(CloudFunctions.getCheckInPINs) { backend, caller, _ in
            CheckInPINsResponse(try await backend.checkInPINs.settings(caller: caller))
        },
        handle(CloudFunctions.setCheckInPINs) { backend, caller, request in
            CheckInPINsResponse(try await backend.checkInPINs.set(caller: caller, pin: request.pin, duressPIN: request.duressPin))
        },
        handle(CloudFunctions.sendTestAlert) { backend, caller, _ in TestAlertResponse(try await backend.testAlerts.send(caller: caller)) },
        handle(CloudFunctions.getTestAlert) { backend, caller, _ in TestAlertResponse(try await backend.testAlerts.latest(caller: caller)) },
    ]
}
