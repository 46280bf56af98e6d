uniform vec4 tint;
void main() { gl_FragData[0] = gl_Color * tint; }
