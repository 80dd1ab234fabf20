package value

import "encoding/json"

// The containers: arrays, maps (and a document's fields) and geo points,
// whose structure Decode checks key by key.

func (d *decoder) compound(key string, depth int) (Value, error) {
	if err := d.openObject(key); err != nil {
		return Value{}, err
	}
	switch key {
	case "arrayValue":
		v := Value{Kind: Array}
		seen := false
		err := d.keys(func(k string) error {
			if k != "values" || seen {
				return d.fail("arrayValue has an unknown or repeated key %q (want \"values\")", k)
			}
			seen = true
			var err error
			v.Array, err = d.array(depth)
			return err
		})
		return v, err
	case "mapValue":
		v := Value{Kind: Map}
		err := d.keys(func(k string) error {
			if k != "fields" || v.Map != nil {
				return d.fail("mapValue has an unknown or repeated key %q (want \"fields\")", k)
			}
			var err error
			v.Map, err = d.fields(depth + 1)
			return err
		})
		if v.Map == nil {
			v.Map = Fields{}
		}
		return v, err
	}
	return d.geoPoint()
}

func (d *decoder) array(depth int) ([]Value, error) {
	t, err := d.token()
	if err != nil {
		return nil, err
	}
	if t != json.Delim('[') {
		return nil, d.fail("arrayValue.values must be an array, not %s", describe(t))
	}
	var out []Value // nil when empty, as before
	if n := d.lex.count(d.limit); n > 0 {
		out = make([]Value, 0, n)
	}
	for i := 0; d.lex.more(); i++ {
		d.push(pathElem{index: i, isIndex: true})
		e, err := d.value(depth+1, true)
		d.pop()
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	_, err = d.token() // ']'
	return out, err
}

// fields decodes an object of field name → value, each at depth.
func (d *decoder) fields(depth int) (Fields, error) {
	if err := d.openObject("fields"); err != nil {
		return nil, err
	}
	f := make(Fields, d.lex.count(d.limit))
	err := d.keys(func(name string) error {
		if err := ValidFieldName(name); err != nil {
			return d.fail("%s", err.Error())
		}
		d.push(pathElem{name: name})
		defer d.pop()
		if _, dup := f[name]; dup {
			return d.fail("field given twice")
		}
		v, err := d.value(depth, false)
		f[name] = v
		return err
	})
	return f, err
}

func (d *decoder) geoPoint() (Value, error) {
	v := Value{Kind: GeoPoint}
	var seenLat, seenLng bool
	err := d.keys(func(k string) error {
		t, err := d.token()
		if err != nil {
			return err
		}
		switch {
		case k == "latitude" && !seenLat:
			seenLat = true
			v.Lat, err = d.double(k, t)
		case k == "longitude" && !seenLng:
			seenLng = true
			v.Lng, err = d.double(k, t)
		default:
			return d.fail("geoPointValue has an unknown or repeated key %q (want \"latitude\" and \"longitude\")", k)
		}
		return err
	})
	if err != nil {
		return Value{}, err
	}
	return v, checkGeo(d.path, v.Lat, v.Lng)
}

func checkGeo(path []pathElem, lat, lng float64) error {
	if !(lat >= -90 && lat <= 90) { // also false for NaN
		return pathError(path, "latitude %s is outside -90..90", formatDouble(lat))
	}
	if !(lng >= -180 && lng <= 180) {
		return pathError(path, "longitude %s is outside -180..180", formatDouble(lng))
	}
	return nil
}
