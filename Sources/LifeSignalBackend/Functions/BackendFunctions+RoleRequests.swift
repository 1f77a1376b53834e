import Foundation
import LifeSignalDomain
import LifeSignalFunctions

extension BackendFunctions {
    /// Answers to a request to become someone's responder (docs/security.md, "Consent"): the
    /// owner accepts or declines, the requester cancels; any other caller, or an unknown id,
    /// gets the same 404.
    static let roleRequestFunctions: [Registration] = [
        handle(CloudFunctions.acceptRoleRequest) { backend, caller, request in
            let contact = try await backend.contacts.acceptRoleRequest(caller: caller, requestID: try WireField.uuid(request.requestId, field: "requestId"))
            return AcceptRoleRequestResponse(success: true, contact: ContactResponse(contact))
        },
        handle(CloudFunctions.declineRoleRequest) { backend, caller, request in
            try await backend.contacts.declineRoleRequest(caller: caller, requestID: try WireField.uuid(request.requestId, field: "requestId"))
            return SuccessResponse()
        },
        handle(CloudFunctions.cancelRoleRequest) { backend, caller, request in
            try await backend.contacts.cancelRoleRequest(caller: caller, requestID: try WireField.uuid(request.requestId, field: "requestId"))
            return SuccessResponse()
        },
    ]
}
