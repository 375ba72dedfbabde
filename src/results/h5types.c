/* SPDX-License-Identifier: BSD-3-Clause */
#include "results/h5types.h"

#include <stdio.h>

hid_t nprb_h5_field_type(const struct nprb_field *field)
{
    switch (field->kind) {
    case NPRB_FIELD_I8:
        return H5Tcopy(H5T_NATIVE_INT8);
    case NPRB_FIELD_I32:
        return H5Tcopy(H5T_NATIVE_INT32);
    case NPRB_FIELD_I64:
        return H5Tcopy(H5T_NATIVE_INT64);
    case NPRB_FIELD_U64:
        return H5Tcopy(H5T_NATIVE_UINT64);
    case NPRB_FIELD_F64:
        return H5Tcopy(H5T_NATIVE_DOUBLE);
    case NPRB_FIELD_STR: {
        hid_t s = H5Tcopy(H5T_C_S1);
        H5Tset_size(s, field->size);
        H5Tset_strpad(s, H5T_STR_NULLTERM);
        return s;
    }
    case NPRB_FIELD_F64_ARRAY: {
        hsize_t count = field->size / sizeof(double);
        return H5Tarray_create2(H5T_NATIVE_DOUBLE, 1, &count);
    }
    }
    return H5I_INVALID_HID;
}

hid_t nprb_h5_row_type(const struct nprb_table_desc *desc, int minor)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, desc->row_bytes);
    for (size_t i = 0; t >= 0 && i < desc->field_count; i++) {
        /* A column the file is too old for is left out: it reads as its descriptor says, and a
         * column of that name in an older type (pass_values was text) is not converted. */
        if (minor >= 0 && minor < desc->fields[i].since_minor)
            continue;
        hid_t ft = nprb_h5_field_type(&desc->fields[i]);
        herr_t rc = H5Tinsert(t, desc->fields[i].name, desc->fields[i].offset, ft);
        H5Tclose(ft);
        if (rc < 0) {
            H5Tclose(t);
            t = H5I_INVALID_HID;
        }
    }
    return t;
}

void nprb_h5_field_type_name(const struct nprb_field *field, char *buf, size_t len)
{
    static const char *const names[] = {
        [NPRB_FIELD_I8] = "int8",    [NPRB_FIELD_I32] = "int32",   [NPRB_FIELD_I64] = "int64",
        [NPRB_FIELD_U64] = "uint64", [NPRB_FIELD_F64] = "float64", [NPRB_FIELD_STR] = "str",
    };
    if (field->kind == NPRB_FIELD_STR)
        snprintf(buf, len, "str%zu", field->size);
    else if (field->kind == NPRB_FIELD_F64_ARRAY)
        snprintf(buf, len, "float64[%zu]", field->size / sizeof(double));
    else
        snprintf(buf, len, "%s", names[field->kind]);
}

bool nprb_h5_field_matches(hid_t file_type, const struct nprb_field *field, char *found, size_t len)
{
    size_t size = H5Tget_size(file_type);
    switch (H5Tget_class(file_type)) {
    case H5T_INTEGER: {
        bool is_signed = H5Tget_sign(file_type) == H5T_SGN_2;
        snprintf(found, len, "%sint%zu", is_signed ? "" : "u", 8 * size);
        switch (field->kind) {
        case NPRB_FIELD_I8:
        case NPRB_FIELD_I32:
        case NPRB_FIELD_I64:
            return is_signed && size == field->size;
        case NPRB_FIELD_U64:
            return !is_signed && size == field->size;
        default:
            return false;
        }
    }
    case H5T_FLOAT:
        snprintf(found, len, "float%zu", 8 * size);
        return field->kind == NPRB_FIELD_F64 && size == field->size;
    case H5T_STRING: {
        htri_t variable = H5Tis_variable_str(file_type);
        if (variable > 0)
            snprintf(found, len, "variable-length string");
        else
            snprintf(found, len, "str%zu", size);
        /* A narrower string reads back whole (HDF5 pads it): how files written before a column
         * grew stay valid. A wider one would be cut. */
        return field->kind == NPRB_FIELD_STR && variable == 0 && size <= field->size;
    }
    case H5T_ARRAY: {
        hsize_t count = 0;
        hid_t base = H5Tget_super(file_type);
        bool doubles = base >= 0 && H5Tget_class(base) == H5T_FLOAT && H5Tget_size(base) == 8;
        if (base >= 0)
            H5Tclose(base);
        int ndims = H5Tget_array_ndims(file_type);
        if (ndims == 1)
            H5Tget_array_dims2(file_type, &count);
        snprintf(found, len, "%s[%llu]%s", doubles ? "float64" : "array", (unsigned long long)count,
                 ndims == 1 ? "" : " of several dimensions");
        return field->kind == NPRB_FIELD_F64_ARRAY && doubles && ndims == 1 &&
               count == field->size / sizeof(double);
    }
    default:
        snprintf(found, len, "HDF5 type class %d", (int)H5Tget_class(file_type));
        return false;
    }
}
