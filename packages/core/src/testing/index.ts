export { checkContract, ContractViolationError, ContractViolationsError, type ContractApp, type ContractOptions, type OperationReport } from './contract';
export { checkResponse, type ContractAnswer } from './contract-response';
export type { ContractRequest } from './contract-requests';
export type { InjectOptions, InjectResponse } from './inject';
