package interp

import "reflect"

type reflectValue = reflect.Value
