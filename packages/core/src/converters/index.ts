export { Convertor } from './convertor';
export {
  StringConvertor,
  PathConvertor,
  IntegerConvertor,
  Int32Convertor,
  FloatConvertor,
  UUIDConvertor,
  SlugConvertor,
} from './builtins';
export { registerUrlConvertor, hasUrlConvertor } from './registry';
export type { ConverterTypes, RegisterConvertorOptions } from './registry';
