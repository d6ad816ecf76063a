# hostile-images.py: tiny picture files, valid and hostile, for the header checks of
# tests/cli/test_hostile_cost.sh (issue 33, item 12), written into the current directory.
import struct, sys
def bmp(name, hs, w, h, bpp=24, comp=0, pixels=None, pal=b'', masks=b'', off=None, size_fields=None):
    if hs == 12:
        info = struct.pack('<IHHHH', 12, w, h, 1, bpp)
    else:
        info = struct.pack('<IiiHHIIiiII', hs, w, h, 1, bpp, comp, 0, 2835, 2835, len(pal)//4 if hs!=12 else 0, 0)
        info += masks
        info += b'\0' * (hs - len(info))
    if pixels is None:
        row = ((w * bpp + 31) // 32) * 4
        pixels = b'\x80' * (row * abs(h))
    o = 14 + len(info) + len(pal) if off is None else off
    data = info + pal + pixels
    fh = b'BM' + struct.pack('<IHHI', 14 + len(data), 0, 0, o)
    open(name, 'wb').write(fh + data)
# valid forms gdk-pixbuf reads
bmp('ok-core.bmp', 12, 4, 4)                                   # OS/2 1.x, 16-bit sides
bmp('ok-v5-topdown.bmp', 124, 4, -4, 32)                       # V5, rows top down
bmp('ok-v4.bmp', 108, 4, 4, 24)
pal = b''.join(struct.pack('<BBBB', i, 255 - i, 0, 0) for i in range(256))
rle = b''.join(b'\x04\x01' + b'\x00\x00' for _ in range(4))[:-2] + b'\x00\x01'   # 4 runs of 4, end of bitmap
bmp('ok-rle8.bmp', 40, 4, 4, 8, 1, pixels=rle, pal=pal)
bmp('ok-16bf.bmp', 40, 4, 4, 16, 3, masks=struct.pack('<III', 0xF800, 0x07E0, 0x001F))
bmp('ok-pal16.bmp', 40, 4, 4, 8, pal=pal[:64])                 # 8 bits, a palette of 16 colors
# hostile: a header size of 4 GB (gdk-pixbuf grows its buffer to it), a pixel offset of 4 GB
bmp('bad-hsize.bmp', 40, 16, 16)
d = bytearray(open('bad-hsize.bmp','rb').read()); d[14:18] = struct.pack('<I', 0xFFFFFFF0); open('bad-hsize.bmp','wb').write(d)
bmp('bad-offset.bmp', 40, 16, 16, off=0xFFFFFFF0)
# a colors-used count of 0xFF0000FF: the loader asked for 4.2 GB to read that palette (fuzz-image)
bmp('bad-colors.bmp', 40, 6, 4, 1, pal=b'\0\0\0\0\xff\xff\xff\0')
d = bytearray(open('bad-colors.bmp','rb').read()); d[46:50] = struct.pack('<I', 0xFF0000FF); open('bad-colors.bmp','wb').write(d)
# hostile sizes in every header form
bmp('big-core.bmp', 12, 65535, 65535, pixels=b'\0' * 16)
bmp('big-v5.bmp', 124, 32767, -32767, 32, pixels=b'\0' * 16)
bmp('big-rle8.bmp', 40, 30000, 30000, 8, 1, pixels=b'\x00\x01', pal=pal)
bmp('big-16bf.bmp', 40, 20000, 20000, 16, 3, masks=struct.pack('<III', 0xF800, 0x07E0, 0x001F), pixels=b'\0' * 16)
bmp('big-1bpp.bmp', 40, 32000, 32000, 1, pal=b'\0\0\0\0\xff\xff\xff\0', pixels=b'\0' * 16)
# GIF: a small logical screen with a 65535 x 65535 frame
gif = b'GIF89a' + struct.pack('<HHBBB', 4, 4, 0, 0, 0) + b'\x2c' + struct.pack('<HHHHB', 0, 0, 65535, 65535, 0) + b'\x02\x02\x44\x01\x00\x3b'
open('big-frame.gif', 'wb').write(gif)
gif = b'GIF89a' + struct.pack('<HHBBB', 65535, 65535, 0, 0, 0) + b'\x2c' + struct.pack('<HHHHB', 0, 0, 1, 1, 0) + b'\x02\x02\x44\x01\x00\x3b'
open('big-screen.gif', 'wb').write(gif)
# JPEG: a frame header of 65535 x 65535
jpg = b'\xff\xd8' + b'\xff\xc0' + struct.pack('>HBHHB', 11, 8, 65535, 65535, 1) + b'\x01\x11\x00' + b'\xff\xd9'
open('big.jpg', 'wb').write(jpg)
# WebP: an extended canvas of 16384 x 16384, a lossless one of 16384 x 16384
vp8x = b'VP8X' + struct.pack('<I', 10) + b'\0\0\0\0' + struct.pack('<I', 16383)[:3] + struct.pack('<I', 16383)[:3]
open('big-x.webp', 'wb').write(b'RIFF' + struct.pack('<I', 4 + len(vp8x)) + b'WEBP' + vp8x)
b = (16383) | (16383 << 14)
vp8l = b'VP8L' + struct.pack('<I', 5) + b'\x2f' + struct.pack('<I', b) + b'\0'
open('big-l.webp', 'wb').write(b'RIFF' + struct.pack('<I', 4 + len(vp8l)) + b'WEBP' + vp8l)
# TIFF: 65535 x 65535 in its first directory
ifd = struct.pack('<H', 2) + struct.pack('<HHII', 256, 4, 1, 65535) + struct.pack('<HHII', 257, 4, 1, 65535) + b'\0\0\0\0'
open('big.tif', 'wb').write(b'II*\0' + struct.pack('<I', 8) + ifd)
