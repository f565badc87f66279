export { Convertor } from './convertor';
export {
  StringConvertor,
  PathConvertor,
  IntegerConvertor,
  FloatConvertor,
  UUIDConvertor,
  SlugConvertor,
} from './builtins';
export { registerUrlConvertor, getConvertor } from './registry';
export type { ConverterTypes } from './registry';
