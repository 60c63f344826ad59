import type { DescEnum, DescEnumValue } from "@bufbuild/protobuf";

/**
 * The name the model sees for an enum value: the proto name without the enum's shared prefix,
 * lower-cased (`MOUSE_BUTTON_RIGHT` → `right`). The protoc plugin uses it to write JSON
 * Schema enums and the SDK uses it to read model arguments, so both sides agree by
 * construction.
 */
export function modelEnumName(value: DescEnumValue): string {
  const prefix = value.parent.sharedPrefix ?? "";
  return value.name.slice(prefix.length).toLowerCase();
}

/**
 * The enum values a model may name: every value but the zero value, which in proto3 means
 * "unset" and is expressed by leaving the field out.
 */
export function modelEnumValues(desc: DescEnum): DescEnumValue[] {
  return desc.values.filter((v) => v.number !== 0);
}
