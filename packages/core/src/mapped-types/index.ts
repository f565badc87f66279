export { PartialType } from './partial-type';
export type { PartialTypeOptions } from './partial-type';
export { PickType } from './pick-type';
export { OmitType } from './omit-type';
export { IntersectionType } from './intersection-type';
export type { IntersectionOf } from './intersection-type';
export type { ClassOf, MappedType } from './types';
